/**
 * What `npm pack` ships, per package of the workspace:
 *   medusa-sales-tax (the plugin, root)      its files, and that production code needs only its
 *                                             runtime dependencies: none of the sandbox's; a store
 *                                             installing its tarball gets none of them (npm ls)
 *   @medusa-sales-tax/contract               compiled JS + .d.ts, no sources, no tests
 *   @medusa-sales-tax/sandbox                the same, and its bin starts from the installed tarball
 * The contract and sandbox tarballs are packed for real (compiled by their build, which is their
 * prepack: asserted, so the contract is compiled once, not once per prepack) and installed into a
 * temporary store from the tarballs (registry packages from npm's cache when present). The plugin's
 * own tarball is packed once and shared by the tests that read its file list or install it.
 * Nothing the plugin imports may resolve only by hoisting (pnpm's node_modules are isolated): every
 * bare import of src/ is a dependency or a peer (those of the admin bundle that plugin:build writes:
 * checked by the compat run, scripts/compat.mjs, which builds it anyway).
 */
import { spawn, spawnSync } from "node:child_process"
import { builtinModules } from "node:module"
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, posix, relative } from "node:path"

jest.setTimeout(240_000)

const ROOT = join(__dirname, "..")
/** the sandbox's runtime dependencies, which the plugin must not carry */
const SANDBOX_ONLY = ["fastify", "@fastify/formbody", "luxon", "minisearch", "zipcodes", "@medusa-sales-tax/sandbox"]

interface Manifest {
  name: string
  scripts?: Record<string, string>
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
  bin?: Record<string, string>
}
interface PackResult {
  name: string
  filename: string
  files: { path: string }[]
}

function manifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8")) as Manifest
}

function npm(args: string[], cwd = ROOT): string {
  const r = spawnSync("npm", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" },
  })
  if (r.status !== 0) throw new Error(`npm ${args.join(" ")} exited ${r.status}\n${r.stderr}`)
  return r.stdout
}

/** The JSON of `npm pack --json` (npm prints its lifecycle scripts' output before it). */
function packJson(stdout: string): PackResult[] {
  const at = stdout.search(/^\[/m)
  return JSON.parse(stdout.slice(at)) as PackResult[]
}

let rootPackDir: string | undefined
let rootPackResult: PackResult | undefined
/**
 * The plugin's tarball, packed once (with --ignore-scripts, as every test here packs it) into a
 * temporary directory; its file list is the one `npm pack --dry-run` prints (same packlist).
 */
function rootPack(): { dir: string; pack: PackResult } {
  if (!rootPackDir || !rootPackResult) {
    rootPackDir = mkdtempSync(join(tmpdir(), "sales-tax-root-pack-"))
    rootPackResult = packJson(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", rootPackDir]))[0]!
  }
  return { dir: rootPackDir, pack: rootPackResult }
}
afterAll(() => {
  if (rootPackDir) rmSync(rootPackDir, { recursive: true, force: true })
})

/** Bare package names imported by the non-test .ts/.tsx files under `dir`. */
function importedPackages(dir: string): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name)
      if (e.isDirectory()) {
        if (e.name !== "__tests__" && e.name !== "node_modules") walk(p)
        continue
      }
      if (!/\.tsx?$/.test(e.name) || /\.(test|spec)\.tsx?$/.test(e.name) || e.name.endsWith(".d.ts")) continue
      const src = readFileSync(p, "utf8")
      for (const m of src.matchAll(
        /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s+["']([^"'.][^"']*)["']|(?:import|require)\(\s*["']([^"'.][^"']*)["']\s*\)|^import\s+["']([^"'.][^"']*)["']/gm,
      )) {
        const spec = m[1] ?? m[2] ?? m[3]!
        const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!
        if (spec.startsWith("node:") || builtinModules.includes(name)) continue
        if (!out.has(name)) out.set(name, relative(ROOT, p))
      }
    }
  }
  walk(join(ROOT, dir))
  return out
}

/** The files of packages/contract that production code under `dir` imports by a relative path (from ROOT, no extension). */
function contractReach(dir: string, out = new Set<string>()): Set<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) contractReach(p, out)
    else if (/\.tsx?$/.test(e.name) && !/\.(test|spec)\.tsx?$/.test(e.name))
      for (const m of readFileSync(p, "utf8").matchAll(/from\s+"(\.[^"]*packages\/contract\/src\/[^"]+)"/g))
        out.add(relative(ROOT, join(p, "..", m[1]!)))
  }
  return out
}

/** Imports of production code not covered by the package's dependencies (or peers). */
function undeclared(dir: string, m: Manifest): string[] {
  const declared = new Set([...Object.keys(m.dependencies ?? {}), ...Object.keys(m.peerDependencies ?? {})])
  return [...importedPackages(dir)].filter(([name]) => !declared.has(name)).map(([name, file]) => `${name} (${file})`)
}

/**
 * The relative targets of a Markdown file's links and images (`[t](x)`, `![t](x)`, `[t]: x`,
 * `<img src="x">`), outside code: no URL with a scheme, no bare `#anchor`; the anchor and query cut.
 */
function relativeLinks(md: string): string[] {
  const text = md.replace(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?^[ \t]*\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "")
  const raw = [
    ...[...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g)].map((m) => m[1]!),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/<img\b[^>]*\bsrc=["']([^"']+)["']/gi)].map((m) => m[1]!),
  ]
  return raw
    .filter((u) => !/^[a-z][a-z0-9+.-]*:/i.test(u) && !u.startsWith("#") && !u.startsWith("//"))
    .map((u) => decodeURI(u.split(/[#?]/)[0]!))
    .filter(Boolean)
}

describe("relativeLinks", () => {
  it("finds links, images, references and <img>, not URLs, anchors or code", () => {
    const md = [
      'See [docs](docs/a.md#x) and ![shot](docs/screenshots/s%201.png "t") and [web](https://x.y/z.md), [top](#top).',
      "[ref]: packages/b/README.md",
      '<img src="docs/c.png" width="10">',
      "`[not](code.md)`",
      "```md",
      "[not](fenced.md)",
      "```",
    ].join("\n")
    expect(relativeLinks(md)).toEqual(["docs/a.md", "docs/screenshots/s 1.png", "packages/b/README.md", "docs/c.png"])
  })
})

describe("the plugin medusa-sales-tax", () => {
  const plugin = manifest(".")

  it("has none of the sandbox's packages among its runtime dependencies; the sandbox is a dev dependency", () => {
    expect(Object.keys(plugin.dependencies ?? {}).filter((d) => SANDBOX_ONLY.includes(d))).toEqual([])
    // the contract is compiled into the plugin (next tests), not a second package to install
    expect(Object.keys(plugin.dependencies ?? {})).not.toContain("@medusa-sales-tax/contract")
    expect(Object.keys(plugin.devDependencies ?? {})).toContain("@medusa-sales-tax/sandbox")
    expect(plugin.bin).toBeUndefined()
  })

  it("production code (src/, tests excluded) imports only its dependencies and peers, never the sandbox", () => {
    // no exception for what "the app has anyway" (@medusajs/core-flows, react-router-dom): under
    // pnpm such an import resolves only through its hidden hoist, if at all
    expect(undeclared("src", plugin)).toEqual([])
    expect([...importedPackages("src").keys()]).not.toContain("@medusa-sales-tax/contract")
    const sandboxImports = [...importedPackages("src")].filter(([name]) => SANDBOX_ONLY.includes(name))
    expect(sandboxImports).toEqual([])
  })

  it("its peers admit both official starters (Medusa 2.15 to 2.x, the lowest dashboard's @medusajs/ui), all of them a starter has or npm places", () => {
    const peers = plugin.peerDependencies ?? {}
    expect(Object.keys(peers).sort()).toEqual([
      "@medusajs/admin-sdk",
      "@medusajs/framework",
      "@medusajs/js-sdk",
      "@medusajs/medusa",
      "@medusajs/ui",
      "react",
      "react-dom",
      "react-router-dom",
    ])
    // ^2.15.0: 2.15.0 up to, not including, 3.0.0 (the default starter pins 2.15.3, the DTC starter 2.18.0)
    for (const p of ["@medusajs/admin-sdk", "@medusajs/framework", "@medusajs/js-sdk", "@medusajs/medusa"]) expect(peers[p]).toBe("^2.15.0")
    // the @medusajs/ui of @medusajs/dashboard 2.15.3 is 4.1.13 (4.2.0 at 2.18.0, 4.2.6 at 2.21.2); its
    // react-router-dom 6.30.3 (6.30.4 at 2.16 to 2.18, 7.18.2 from 2.19 on)
    expect(peers["@medusajs/ui"]).toBe("^4.1.13")
    expect(peers["react-router-dom"]).toBe("^6.30.3 || ^7.0.0")
    expect(Object.keys(plugin.peerDependenciesMeta ?? {})).toEqual(["@medusajs/js-sdk"])
    // the icons are the plugin's own dependency: the DTC starter's backend does not list them
    expect(plugin.dependencies?.["@medusajs/icons"]).toBe("^2.15.0")
  })

  it("carries the contract compiled in: its imports of packages/contract land in the packed .medusa/server, the sandbox's do not ship", () => {
    // src/ reaches the contract by a relative path into packages/contract/src, which plugin:build
    // (tsc, rootDir ./) compiles to .medusa/server/packages/contract/src beside .medusa/server/src
    const reach = contractReach(join(ROOT, "src"))
    expect([...reach].sort()).toEqual(["packages/contract/src/index", "packages/contract/src/money"])
    const plugin = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, string> }
    expect(plugin.exports["./contract"]).toBe("./.medusa/server/packages/contract/src/index.js")
    const copy = mkdtempSync(join(tmpdir(), "sales-tax-contract-files-"))
    try {
      writeFileSync(join(copy, "package.json"), readFileSync(join(ROOT, "package.json")))
      const built = [
        "packages/contract/src/index.js",
        "packages/contract/src/money.js",
        "packages/contract/src/money.test.js",
        "packages/sandbox/src/index.js",
      ].map((f) => join(".medusa/server", f))
      for (const f of built) {
        spawnSync("mkdir", ["-p", join(copy, f, "..")])
        writeFileSync(join(copy, f), "")
      }
      const [r] = packJson(npm(["pack", "--dry-run", "--json", "--ignore-scripts"], copy))
      const shipped = r!.files.map((f) => f.path).filter((p) => p.startsWith(".medusa/"))
      expect(shipped.sort()).toEqual([".medusa/server/packages/contract/src/index.js", ".medusa/server/packages/contract/src/money.js"])
      expect([...reach].map((f) => `.medusa/server/${f}.js`).filter((f) => !shipped.includes(f))).toEqual([])
    } finally {
      rmSync(copy, { recursive: true, force: true })
    }
  })

  it("every public path in exports names a source the build compiles (medusa-sales-tax/client, /contract, the hook handler)", () => {
    const plugin = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, unknown> }
    const targets = Object.entries(plugin.exports).flatMap(([k, v]) =>
      typeof v === "string" && !k.includes("*") && v.startsWith("./.medusa/server/") ? [v] : [],
    )
    expect(targets.length).toBeGreaterThanOrEqual(3)
    const missing = targets.filter(
      (t) => !["ts", "tsx"].some((ext) => existsSync(join(ROOT, t.slice("./.medusa/server/".length).replace(/\.js$/, `.${ext}`)))),
    )
    expect(missing).toEqual([])
  })

  it("packs no sandbox, bin or workspace package", () => {
    const paths = rootPack().pack.files.map((f) => f.path)
    expect(paths).toContain("package.json")
    expect(paths).toContain("README.md")
    expect(paths.filter((p) => /(^|\/)sandbox\/|^bin\/|^packages\/|(^|\/)node_modules\//.test(p))).toEqual([])
  })

  it("ships the docs and every file their relative links and images name (docs/screenshots too): the packed README renders", () => {
    const { dir, pack } = rootPack()
    const paths = new Set(pack.files.map((f) => f.path))
    expect(paths.has("docs/provider.md")).toBe(true)
    // read from the tarball itself: what a reader of the installed package has
    spawnSync("tar", ["-xzf", join(dir, pack.filename), "-C", dir])
    const broken: string[] = []
    let images = 0
    for (const md of [...paths].filter((p) => p.endsWith(".md"))) {
      for (const link of relativeLinks(readFileSync(join(dir, "package", md), "utf8"))) {
        if (/\.(png|jpe?g|gif|webp|svg)$/i.test(link)) images++
        const target = posix.normalize(posix.join(posix.dirname(md), link))
        if (!paths.has(target)) broken.push(`${md} → ${link}`)
      }
    }
    expect(broken).toEqual([])
    expect(images).toBeGreaterThan(20)
    expect([...paths].filter((p) => p.startsWith("docs/screenshots/") && p.endsWith(".png")).length).toBeGreaterThan(20)
  })

  it("ships none of the dev-only code that plugin:build compiles (tests, demo, dev-store seed and config, benches, scripts)", () => {
    // plugin:build (tsc) writes every TypeScript file tsconfig reaches to .medusa/server at its path
    // there: a top-level folder holding TypeScript besides src/ lands in .medusa/server/<folder>.
    // npm applies "files" to a copy of the package with such a build: only src/ may ship.
    const hasTs = (d: string): boolean =>
      readdirSync(d, { withFileTypes: true }).some((e) =>
        e.isDirectory() ? e.name !== "node_modules" && hasTs(join(d, e.name)) : /\.tsx?$/.test(e.name),
      )
    const devOnly = readdirSync(ROOT, { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== "src" && e.name !== "node_modules" && !e.name.startsWith("."))
      .map((e) => e.name)
      .filter((d) => hasTs(join(ROOT, d)))
    expect(devOnly).toEqual(expect.arrayContaining(["demo", "dev-store", "integration-tests", "packages"]))
    // packages/: the contract ships compiled in, the sandbox does not (the test above)
    devOnly.splice(devOnly.indexOf("packages"), 1)
    const copy = mkdtempSync(join(tmpdir(), "sales-tax-files-"))
    try {
      writeFileSync(join(copy, "package.json"), readFileSync(join(ROOT, "package.json")))
      const built = ["src/index.js", "medusa-config.js", ...devOnly.map((d) => `${d}/seed.js`)].map((f) => join(".medusa/server", f))
      for (const f of built) {
        spawnSync("mkdir", ["-p", join(copy, f, "..")])
        writeFileSync(join(copy, f), "")
      }
      const [r] = packJson(npm(["pack", "--dry-run", "--json", "--ignore-scripts"], copy))
      expect(r!.files.map((f) => f.path).filter((p) => p.startsWith(".medusa/"))).toEqual([".medusa/server/src/index.js"])
    } finally {
      rmSync(copy, { recursive: true, force: true })
    }
  })
})

describe("@medusa-sales-tax/contract and @medusa-sales-tax/sandbox", () => {
  let dir: string
  let packs: PackResult[]

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "sales-tax-pack-"))
    // the sandbox's build compiles the contract, then the sandbox: each package's prepack is its build
    // (asserted below), so this is what their prepacks would pack, with the contract compiled once
    npm(["run", "build", "-w", "@medusa-sales-tax/sandbox"])
    packs = packJson(
      npm([
        "pack",
        "--json",
        "--ignore-scripts",
        "--pack-destination",
        dir,
        "-w",
        "@medusa-sales-tax/contract",
        "-w",
        "@medusa-sales-tax/sandbox",
      ]),
    )
  })
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  const filesOf = (name: string) => packs.find((p) => p.name === name)!.files.map((f) => f.path)

  it("each package's prepack is its build, and the sandbox's build compiles the contract first (what beforeAll ran)", () => {
    const contract = manifest("packages/contract")
    const sandbox = manifest("packages/sandbox")
    expect(contract.scripts?.prepack).toBe("tsc -p tsconfig.build.json")
    expect(contract.scripts?.build).toBe(contract.scripts?.prepack)
    expect(sandbox.scripts?.prepack).toBe("tsc -p ../contract/tsconfig.build.json && tsc -p tsconfig.build.json")
    expect(sandbox.scripts?.build).toBe(sandbox.scripts?.prepack)
  })

  it("the contract ships compiled JS and declarations of its index and money helpers, nothing else", () => {
    const files = filesOf("@medusa-sales-tax/contract")
    for (const f of [
      "package.json",
      "README.md",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/money.js",
      "dist/money.d.ts",
      "dist/operations.js",
    ])
      expect(files).toContain(f)
    expect(files.filter((f) => !/^(package\.json|README\.md|dist\/.*\.(js|d\.ts))$/.test(f))).toEqual([])
    expect(files.filter((f) => /\.test\./.test(f))).toEqual([])
  })

  it("the sandbox ships its bin, compiled JS and declarations (engine, TIC catalogue, v1), no tests", () => {
    const files = filesOf("@medusa-sales-tax/sandbox")
    for (const f of [
      "bin/sales-tax-sandbox.js",
      "dist/cli.js",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/tic/data/tic-catalog.js",
      "dist/engine/index.js",
      "dist/v1/index.js",
    ]) {
      expect(files).toContain(f)
    }
    expect(files.filter((f) => !/^(package\.json|README\.md|bin\/sales-tax-sandbox\.js|dist\/.*\.(js|d\.ts))$/.test(f))).toEqual([])
    expect(files.filter((f) => /\.test\.|__tests__/.test(f))).toEqual([])
  })

  it("each declares what its compiled code imports", () => {
    expect(undeclared("packages/contract/src", manifest("packages/contract"))).toEqual([])
    expect(undeclared("packages/sandbox/src", manifest("packages/sandbox"))).toEqual([])
  })

  it("a store that installs the plugin's tarball alone has its dependencies, none of the sandbox's packages and no contract package", () => {
    // the plugin packed as is (its compiled .medusa/server is not needed for the dependency tree);
    // peers (Medusa, React) are the store's own and left out here
    const { dir: pluginDir, pack: plugin } = rootPack()
    const store = join(dir, "plugin-store")
    spawnSync("mkdir", ["-p", store])
    writeFileSync(join(store, "package.json"), JSON.stringify({ name: "plugin-store", version: "1.0.0", private: true }))
    npm(
      ["install", "--prefer-offline", "--no-package-lock", "--ignore-scripts", "--legacy-peer-deps", join(pluginDir, plugin.filename)],
      store,
    )
    // npm ls exits 1 for the peers left out: accept exactly those
    const ls = spawnSync("npm", ["ls", "--omit=dev", "--all", "--parseable"], { cwd: store, encoding: "utf8" })
    const missing = [...ls.stderr.matchAll(/missing: (\S+)@[^,]+, required by/g)].map((m) => m[1]!)
    expect(missing.filter((m) => !Object.hasOwn(manifest(".").peerDependencies ?? {}, m))).toEqual([])
    expect(ls.status === 0 || missing.length > 0).toBe(true)
    const tree = ls.stdout
      .split("\n")
      .filter(Boolean)
      .map((p) => relative(store, p))
    expect(tree).toContain(join("node_modules", "medusa-sales-tax"))
    expect(tree).not.toContain(join("node_modules", "@medusa-sales-tax", "contract"))
    expect(tree).toContain(join("node_modules", "axios"))
    expect(tree).toContain(join("node_modules", "@medusajs", "icons"))
    const names = tree.map((p) => p.split("node_modules/").pop()!)
    expect(names.filter((n) => SANDBOX_ONLY.includes(n))).toEqual([])
  })

  it("installed from the tarballs, `sales-tax-sandbox --port 0` starts and answers", async () => {
    const store = join(dir, "store")
    spawnSync("mkdir", ["-p", store])
    writeFileSync(join(store, "package.json"), JSON.stringify({ name: "store", version: "1.0.0", private: true }))
    const tarballs = packs.map((p) => join(dir, p.filename))
    npm(["install", "--prefer-offline", "--no-package-lock", "--ignore-scripts", ...tarballs], store)
    const ls = JSON.parse(npm(["ls", "--omit=dev", "--all", "--json"], store)) as { dependencies?: Record<string, unknown> }
    expect(Object.keys(ls.dependencies ?? {}).sort()).toEqual(["@medusa-sales-tax/contract", "@medusa-sales-tax/sandbox"])
    const bin = join(store, "node_modules", ".bin", "sales-tax-sandbox")
    expect(existsSync(bin)).toBe(true)

    // from the store, not the checkout: no tsx, no sources, only what the tarballs hold
    const child = spawn(bin, ["--port", "0", "--api-key", "sk_pack_test_key_0123456789"], { cwd: store, stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    child.stdout!.on("data", (c: Buffer) => (out += c.toString("utf8")))
    child.stderr!.on("data", (c: Buffer) => (out += c.toString("utf8")))
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const t = setInterval(() => {
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
          if (m) {
            clearInterval(t)
            resolve(m[1]!)
          }
        }, 20)
        child.on("exit", (code) => {
          clearInterval(t)
          reject(new Error(`sales-tax-sandbox exited ${code}: ${out}`))
        })
      })
      const health = await fetch(`${url}/tax/health`)
      expect(health.status).toBe(200)
      const search = await fetch(`${url}/tax/tic/search`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": "sk_pack_test_key_0123456789" },
        body: JSON.stringify({ query: "20010", limit: 1 }),
      })
      expect(search.status).toBe(200)
      expect(((await search.json()) as { results: { ticId: number }[] }).results[0]!.ticId).toBe(20010)
    } finally {
      child.kill("SIGTERM")
    }
  })
})
