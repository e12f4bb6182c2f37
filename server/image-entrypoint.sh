#!/bin/sh
# The image's ENTRYPOINT (Dockerfile, docs/deploy.md): runs the command it is given (the console by
# default, `node build/platform/server.mjs` for the platform on its own) once a process that will
# hold the platform has its PostgreSQL. In the image the database is DATABASE_URL, never the PGlite
# that `npm start` embeds on a laptop: its files would live and die with one container, unseen by
# the others. A console with API_URL holds no platform and needs none. Any other command (a shell to
# look around) runs as it is.
set -eu
holds_platform=no
case "$*" in
  *build/platform/server.mjs*) holds_platform=yes ;;
  *server.mjs*) [ -z "${API_URL:-}" ] && holds_platform=yes ;;
esac
if [ "$holds_platform" = yes ] && [ -z "${DATABASE_URL:-}" ]; then
  echo "DATABASE_URL is required: postgres://USER:PASSWORD@HOST:5432/DATABASE, the PostgreSQL the image runs on (or API_URL, for a console whose platform runs on its own)." >&2
  exit 1
fi
exec "$@"
