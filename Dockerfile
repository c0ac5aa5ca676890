# The headless gateway (what `npm run serve` runs), for docker-compose.yml and other container hosts.
# Debian (glibc), not Alpine: the native engines (libsql, sharp, sherpa-onnx, node-llama-cpp) ship
# prebuilt glibc binaries.
FROM node:24-bookworm-slim AS build
WORKDIR /app
# The desktop app's Electron binary and llama.cpp's GPU builds are not needed in a container.
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1 NODE_LLAMA_CPP_SKIP_DOWNLOAD=true
# The same .npmrc as a local install (ignore-scripts: no dependency runs an install script), and an
# exact install from the lockfile.
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    GATEWAY_HOST=0.0.0.0 \
    GATEWAY_PORT=8080 \
    GATEWAY_DATA_DIR=/var/lib/switchyard
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p -m 0700 /var/lib/switchyard && chown node:node /var/lib/switchyard
USER node
EXPOSE 8080
# node as PID 1 receives SIGTERM directly and drains (docs/team-mode.md, "Stopping an instance").
CMD ["node", "--max-semi-space-size=16", "dist/gateway/src/cli.js"]
