# syntax=docker/dockerfile:1
# Kassa's container image (docs/deployment.md). Two stages on one base, so the native module compiled in the
# first (better-sqlite3) runs in the second: the same Node, the same glibc.

# Build: every dependency, the client, the dashboard and the server compiled, then the dev dependencies dropped.
FROM node:20.20.2-bookworm-slim AS build
# better-sqlite3 downloads a prebuilt binary for this Node; where it cannot, node-gyp compiles it with these.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY packages packages
COPY bin bin
COPY src src
# --ignore-scripts keeps npm ci from running the root's prepare (a build) before it is asked for; the two
# dependencies with install scripts are rebuilt by name.
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && npm rebuild better-sqlite3 esbuild \
 && npm run build \
 && npm prune --omit=dev --no-audit --no-fund

# Runtime: the compiled code and production dependencies only, owned by root and run as the unprivileged node user.
FROM node:20.20.2-bookworm-slim
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/bin bin
COPY --from=build /app/dist dist
# The workspaces node_modules links to: the SDK (the CLI's API commands use it) and the dashboard's static files.
COPY --from=build /app/packages/client/package.json packages/client/package.json
COPY --from=build /app/packages/client/dist packages/client/dist
COPY --from=build /app/packages/dashboard/package.json packages/dashboard/package.json
COPY --from=build /app/packages/dashboard/dist packages/dashboard/dist
# The SQLite database and the bank connections' files; with PostgreSQL only the bank files are kept here.
RUN mkdir -p /var/lib/kassa && chown node:node /var/lib/kassa
VOLUME /var/lib/kassa
ENV HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_URL=sqlite:/var/lib/kassa/kassa.sqlite \
    KASSA_BANK_FILES_DIR=/var/lib/kassa/bank-files
USER node
EXPOSE 8080
# Readiness (GET /readyz: the database answers), asked with Node's own fetch: the slim image has no curl.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/kassa.js", "serve"]
