# One image for every app of the repository; docker-compose.yml picks the app by command.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/apps/catalog-sandbox/seed ./apps/catalog-sandbox/seed
COPY --from=build /app/apps/shopify-sandbox/schema ./apps/shopify-sandbox/schema
# The reference mapping (deploy/sandboxes.env names it); mount your own shops' mapping files.
COPY --from=build /app/apps/connector/mappings ./apps/connector/mappings
USER node
CMD ["node", "dist/apps/catalog-sandbox/src/main.js"]
