# syntax=docker/dockerfile:1
# Linkwise: one image for either tier, chosen by its command (docs/deploy.md).
#   the console (default):   docker run … linkwise
#   the platform on its own: docker run … linkwise node build/platform/server.mjs
# Its database is PostgreSQL (DATABASE_URL). tests/docker/image.test.ts performs these steps in an
# empty folder, in this order, and starts what results: keep each step runnable there (paths
# relative to WORKDIR in RUN).

# The build: every dependency (the build's tools are dev dependencies), then the console and the
# platform's entries as plain JavaScript (npm run build), then the dev dependencies removed.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# What runs: production dependencies, the build, the console's server. No
# TypeScript, no sources, no dev dependency (tsx, vite, esbuild are not there).
FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=3000 DATA_DIR=/app/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules/
COPY --from=build /app/build build/
COPY --from=build /app/server.mjs ./
COPY --from=build /app/server server/
# Uploads, the outbox and generated keys when no S3 or SMTP is set: a volume mounted here. The
# code stays root's, read-only to the process.
RUN mkdir data && chown 1000:1000 data
# node, the base image's unprivileged user, by number so that an orchestrator can check it is not root.
USER 1000:1000
EXPOSE 3000
# SIGTERM: stop taking requests, fail readiness, let those under way finish, close the platform
# (server.mjs, platform/server.ts); allow it 30 s (docker run --stop-timeout 30).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["node", "server/healthcheck.mjs"]
ENTRYPOINT ["/app/server/image-entrypoint.sh"]
CMD ["node", "--max-semi-space-size=32", "server.mjs", "./build/server/index.js"]
