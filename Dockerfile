# The console with the embedded platform. Data (PGlite, uploads, outbox) lives in /data.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npx react-router build

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production DATA_DIR=/data PORT=3000
COPY --from=build /app /app
VOLUME /data
EXPOSE 3000
CMD ["node", "server.mjs", "./build/server/index.js"]
