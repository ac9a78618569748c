// Medusa WITHOUT the plugin, for `npm run bench:store` (bench/store.app.ts boots it with
// medusaIntegrationTestRunner, cwd here): no plugin, no plugin module or provider, no src/ (so no
// plugin middlewares, workflow hooks or subscribers). The Tax Module keeps Medusa's system provider
// (tp_system), which the bench's US and Canadian tax regions use. Same project settings as the
// root medusa-config.ts otherwise (dev-store/medusa-config.js).
const { defineConfig } = require("@medusajs/framework/utils")

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: { storeCors: "*", adminCors: "*", authCors: "*", jwtSecret: "supersecret", cookieSecret: "supersecret" },
  },
})
