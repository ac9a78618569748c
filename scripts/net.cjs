// Loopback helpers shared by the test command, the test setup and the embedded PostgreSQL launcher.
"use strict"
const net = require("node:net")

/** A port that was free on 127.0.0.1 a moment ago. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

/** Whether something accepts a TCP connection at host:port within `timeoutMs`. */
function answers(host, port, timeoutMs = 1500) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port })
    const done = (ok) => {
      s.destroy()
      resolve(ok)
    }
    s.setTimeout(timeoutMs, () => done(false))
    s.once("connect", () => done(true))
    s.once("error", () => done(false))
  })
}

module.exports = { freePort, answers }
