const { dropTrash } = require("./db-template.js")

module.exports = async function globalTeardown() {
  // the spec databases the workers put away and did not drop yet (integration-tests/setup.js), all at once
  if (process.env.TEST_TYPE === "integration:http") {
    const failed = await dropTrash().catch((e) => [e.message])
    if (failed.length) console.warn(`[tests] databases put away and not dropped: ${failed.join("; ")}`)
  }
  const pg = globalThis.__EMBEDDED_PG__
  if (pg) await pg.stop()
}
