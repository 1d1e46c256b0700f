# syntax=docker/dockerfile:1
# One image for every Switchboard process; the command picks the role:
#   api     node dist/apps/api/apps/api/src/main.js        (default; also serves the console at /admin)
#   worker  node --max-semi-space-size=4 dist/apps/worker/apps/worker/src/main.js   (docs/running.md, worker memory)
#   migrate sh -c "node scripts/migrate.js up && node -r @swc-node/register prisma/seed.ts"
# docker-compose.yml wires the three together.

ARG NODE_IMAGE=node:20-bookworm-slim

# --- dependencies: only the manifests, so this layer is reused until they change -------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/worker/package.json apps/worker/
COPY apps/admin/package.json apps/admin/
COPY apps/widget/package.json apps/widget/
COPY libs/agent/package.json libs/agent/
COPY libs/agent-config/package.json libs/agent-config/
COPY libs/config/package.json libs/config/
COPY libs/db/package.json libs/db/
COPY libs/queue/package.json libs/queue/
COPY libs/webhooks/package.json libs/webhooks/
COPY libs/outbound/package.json libs/outbound/
COPY libs/client/package.json libs/client/
# Only argon2 needs its install script (docs/dependencies.md): it tests the bundled prebuild and
# compiles from source when that does not load, hence the toolchain in this stage only. The
# image's npm 10 does not read package.json `allowScripts`, so scripts are skipped explicitly
# and argon2's is run on its own.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && npm rebuild argon2

# --- build: Prisma client, API, worker, console, widget ---------------------------------------
FROM deps AS build
COPY . .
RUN npm run prisma:generate --silent \
 && npx nest build api \
 && npx nest build worker \
 && npm run build -w apps/admin \
 && npm run build -w apps/widget

# --- runtime: the built tree without npm's cache ----------------------------------------------
# It keeps the dev dependencies and the TypeScript sources on purpose: the migrate role runs
# the TypeScript seed through @swc-node/register (docs/decisions.md).
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /app ./
USER node
EXPOSE 3000
CMD ["node", "dist/apps/api/apps/api/src/main.js"]
