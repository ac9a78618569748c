import { parseArgs } from "node:util"
import { z } from "zod"
import { DEFAULT_API_KEY, DEFAULT_API_LOGIN_ID, DEFAULT_CONNECTION_ID } from "./app"
import { startSandbox } from "./index"

/** Default port of the CLI (programmatic startSandbox defaults to 0, an ephemeral port). */
export const CLI_DEFAULT_PORT = 8787

const USAGE = `usage: sales-tax-sandbox [--port <n|0>] [--host <h>] [--api-key <k>] [--connection-id <id>]
                         [--api-login-id <id>] [--data-dir <dir>] [--log]
  --port            TCP port, 0 = ephemeral (default ${CLI_DEFAULT_PORT})
  --host            interface to bind (default 127.0.0.1)
  --api-key         API key of the default connection (default ${DEFAULT_API_KEY})
  --connection-id   id of the default connection, at least 36 characters (default ${DEFAULT_CONNECTION_ID})
  --api-login-id    legacy v1 apiLoginID of the default connection (default ${DEFAULT_API_LOGIN_ID})
  --data-dir        keep data in a journal in this directory, locked: one sandbox per directory
                    (default: in memory only)
  --log             log requests (API keys redacted)
Prints "listening on http://HOST:PORT" once ready; SIGINT/SIGTERM close it.`

const ArgsSchema = z.object({
  port: z
    .string()
    .regex(/^\d+$/, "--port must be an integer from 0 to 65535")
    .transform(Number)
    .pipe(z.number().int().min(0).max(65535, "--port must be an integer from 0 to 65535"))
    .default(CLI_DEFAULT_PORT),
  host: z.string().min(1, "--host must not be empty").default("127.0.0.1"),
  "api-key": z.string().min(1, "--api-key must not be empty").default(DEFAULT_API_KEY),
  "connection-id": z.string().min(36, "--connection-id must be at least 36 characters").default(DEFAULT_CONNECTION_ID),
  "api-login-id": z.string().min(1, "--api-login-id must not be empty").default(DEFAULT_API_LOGIN_ID),
  "data-dir": z.string().min(1, "--data-dir must not be empty").optional(),
  log: z.boolean().default(false),
  help: z.boolean().default(false),
})
export type CliArgs = z.output<typeof ArgsSchema>

/** Parses and validates CLI arguments; throws an Error with a readable message when they are bad. */
export function parseCliArgs(argv: string[]): CliArgs {
  let values: Record<string, unknown>
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: "string", short: "p" },
        host: { type: "string" },
        "api-key": { type: "string" },
        "connection-id": { type: "string" },
        "api-login-id": { type: "string" },
        "data-dir": { type: "string" },
        log: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }).values
  } catch (e) {
    throw new Error((e as Error).message, { cause: e })
  }
  const r = ArgsSchema.safeParse(values)
  if (!r.success) throw new Error(r.error.issues.map((i) => i.message).join("; "))
  return r.data
}

/** Runs the CLI; resolves once listening. Exits 2 on bad arguments, 1 when it cannot start. */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  let args: CliArgs
  try {
    args = parseCliArgs(argv)
  } catch (e) {
    process.stderr.write(`sales-tax-sandbox: ${(e as Error).message}\n${USAGE}\n`)
    process.exit(2)
  }
  if (args.help) {
    process.stdout.write(USAGE + "\n")
    return
  }
  let running
  try {
    running = await startSandbox({
      port: args.port,
      host: args.host,
      apiKey: args["api-key"],
      connectionId: args["connection-id"],
      apiLoginId: args["api-login-id"],
      dataDir: args["data-dir"],
      logger: args.log,
    })
  } catch (e) {
    process.stderr.write(`sales-tax-sandbox: cannot start: ${(e as Error).message}\n`)
    process.exit(1)
  }
  process.stdout.write(`listening on ${running.url}\n`)
  let closing = false
  const stop = () => {
    if (closing) return
    closing = true
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
}

if (require.main === module) void main()
