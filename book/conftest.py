"""pytest settings for ``pytest --nbval-lax book/``: collect the chapters, not the build's copies."""

collect_ignore_glob = ["_build/*", "_vendor/*", "_ext/*"]
