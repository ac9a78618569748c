import { spawn } from "node:child_process"
import { join } from "node:path"
import { redactUrl } from "./index"
import { request } from "./__tests__/helpers"

/**
 * The CLI's --api-login-id configures the v1 login of the default connection; with --log, the
 * request log never shows an apiKey sent in the query string (nor in the body).
 */
const ROOT = join(__dirname, "../..")

it("redactUrl hides apiKey query parameters in any case", () => {
  expect(redactUrl("/1.0/Service/Ping?apiKey=s3cret&x=1")).toBe("/1.0/Service/Ping?apiKey=[redacted]&x=1")
  expect(redactUrl("/1.0/Service/Ping?a=1&APIKEY=s3cret")).toBe("/1.0/Service/Ping?a=1&APIKEY=[redacted]")
  expect(redactUrl("/1.0/Service/Ping")).toBe("/1.0/Service/Ping")
})

it("serves v1 with the --api-login-id login and keeps the key out of the log", async () => {
  const key = "cli-secret-key-7d1e"
  const login = "CLI-LOGIN-42"
  const child = spawn(
    process.execPath,
    ["--require", require.resolve("tsx/cjs"), join(ROOT, "src/cli.ts"), "--port", "0", "--log", "--api-key", key, "--api-login-id", login],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    },
  )
  let out = ""
  child.stdout!.on("data", (c: Buffer) => (out += c.toString("utf8")))
  child.stderr!.on("data", (c: Buffer) => (out += c.toString("utf8")))
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const t = setInterval(() => {
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
        if (m) {
          clearInterval(t)
          resolve(Number(m[1]))
        }
      }, 20)
      child.on("exit", (code) => {
        clearInterval(t)
        reject(new Error(`CLI exited ${code}: ${out}`))
      })
    })
    const good = await request(
      port,
      "POST",
      `/1.0/Service/Ping?apiKey=${key}`,
      { "content-type": "application/json" },
      JSON.stringify({ apiLoginID: login.toLowerCase() }),
    )
    expect(good.body).toEqual({ ResponseType: 3, Messages: [] })
    const body = await request(
      port,
      "POST",
      "/1.0/Service/Ping",
      { "content-type": "application/json" },
      JSON.stringify({ apiLoginID: login, apiKey: key }),
    )
    expect(body.body).toEqual({ ResponseType: 3, Messages: [] })
    const defaultLogin = await request(
      port,
      "POST",
      "/1.0/Service/Ping",
      { "content-type": "application/json" },
      JSON.stringify({ apiLoginID: "sandbox-login", apiKey: key }),
    )
    expect(defaultLogin.body.ResponseType).toBe(0)
    // let the log lines flush (until they are there: a loaded machine may take longer than any fixed sleep)
    for (const until = Date.now() + 10_000; !out.includes("/1.0/Service/Ping?apiKey=[redacted]") && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 20))
    expect(out).toContain("/1.0/Service/Ping?apiKey=[redacted]")
    expect(out).not.toContain(key)
  } finally {
    child.kill("SIGTERM")
    await new Promise((r) => child.once("exit", r))
  }
}, 30_000)
