# syntax=docker/dockerfile:1
# The export-worker service. Build from the repository root: docker build -f infra/docker/export-worker.Dockerfile .

FROM node:20-bookworm-slim AS build
WORKDIR /app
# pnpm comes from npm, pinned like package.json#packageManager (corepack is not used).
RUN npm install -g pnpm@10.34.9
COPY . .
RUN pnpm install --frozen-lockfile \
  && pnpm exec tsc -b \
  && pnpm --filter @pfs/export-worker --prod deploy --legacy /out

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /out ./
USER node
EXPOSE 3002
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:3002/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# A bounded heap keeps the streaming worker's memory flat (docs/exports.md); same bound as scripts/start.mjs.
CMD ["node", "--max-old-space-size=128", "dist/main.js"]
