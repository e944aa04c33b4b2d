# One image for every app of the repository; docker-compose.yml picks the app by command (the
# connector by default). No image has been built where this is developed (no Docker engine there):
# test/stack/docker-compose.e2e-spec.ts checks the compose file, and
# test/stack/compose-environment.e2e-spec.ts runs the built connector with the environment, the
# secrets and the mounts compose gives it.

# 1. Build: every dependency from the lock file (npm ci, which honours package.json
#    `allowScripts` as on a developer's machine), then the swc build into dist/.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 2. Production dependencies only, from the same lock file: no compiler, test runner or linter
#    reaches the final image.
FROM node:24-bookworm-slim AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# 3. The image: the build, its production dependencies, and what the apps read at run time.
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=production-dependencies /app/package.json /app/package-lock.json ./
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/apps/catalog-sandbox/seed ./apps/catalog-sandbox/seed
COPY --from=build /app/apps/shopify-sandbox/schema ./apps/shopify-sandbox/schema
# The reference mapping; compose mounts the mapping files at /etc/catalog-connector/.
COPY --from=build /app/apps/connector/mappings ./apps/connector/mappings
# The image's user `node` (uid 1000) runs every app: the secret files compose mounts must be
# readable by it (docs/production.md, "Secrets").
USER node
EXPOSE 3000 3001
# The connector's liveness on its public port (PORT), with Node's own fetch: the slim image has no
# curl. The sandboxes' services in docker-compose.yml replace it with their own.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/live', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--heap-growing-percent=20", "dist/apps/connector/src/main.js"]
