/**
 * What `npm test` does when Chromium or Redis is missing (scripts/provision.cjs): as root it runs
 * apt-get (update once, then install); as another user it fails at once with one line naming the
 * command to run; a failed apt-get is one line too. The machine is a recording fake here: apt-get
 * is not run by the unit suite.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { provisioner, ProvisionError } = require("./provision.cjs") as {
  provisioner: (sys: unknown) => {
    chromium(override?: string): string
    redisServer(): string
    plan(override?: string): string[]
    install(pkgs: string[]): void
  }
  ProvisionError: new (m: string) => Error
}

function fakeMachine(o: { root: boolean; has?: string[]; aptInstalls?: Record<string, string>; aptFails?: boolean }) {
  const present = new Set(o.has ?? [])
  const runs: string[] = []
  const sys = {
    isRoot: () => o.root,
    which: (cmd: string) => (present.has(`/usr/bin/${cmd}`) ? `/usr/bin/${cmd}` : null),
    exists: (p: string) => present.has(p),
    run: (cmd: string, args: string[], env: Record<string, string>) => {
      runs.push(`${env.DEBIAN_FRONTEND === "noninteractive" ? "" : "(interactive) "}${cmd} ${args.join(" ")}`)
      if (o.aptFails) return 100
      if (args[0] === "install")
        for (const pkg of args.filter((a) => !a.startsWith("-")).slice(1)) {
          const installs = o.aptInstalls?.[pkg]
          if (installs) present.add(installs)
        }
      return 0
    },
    log: () => undefined,
  }
  return { sys, runs }
}

describe("provisioning for npm test", () => {
  it("as another user, a missing redis-server fails at once with the one command to run", () => {
    const { sys, runs } = fakeMachine({ root: false })
    const p = provisioner(sys)
    expect(() => p.redisServer()).toThrow(
      new ProvisionError('redis-server is missing: run "sudo apt-get install -y redis-server", then npm test again'),
    )
    expect(runs).toEqual([])
  })

  it("as another user, a missing chromium fails at once with the one command to run", () => {
    const { sys, runs } = fakeMachine({ root: false })
    expect(() => provisioner(sys).chromium()).toThrow(
      new ProvisionError(`Debian's chromium (admin browser test) is missing: run "sudo apt-get install -y chromium", then npm test again`),
    )
    expect(runs).toEqual([])
  })

  it("as root, installs what is missing through apt-get, updating the package lists once", () => {
    const { sys, runs } = fakeMachine({
      root: true,
      aptInstalls: { "redis-server": "/usr/bin/redis-server", chromium: "/usr/bin/chromium" },
    })
    const p = provisioner(sys)
    expect(p.chromium()).toBe("/usr/bin/chromium")
    expect(p.redisServer()).toBe("/usr/bin/redis-server")
    expect(runs).toEqual([
      "apt-get update -qq",
      "apt-get install -y -qq --no-install-recommends chromium",
      "apt-get install -y -qq --no-install-recommends redis-server",
    ])
  })

  it("uses what is there without apt-get", () => {
    const { sys, runs } = fakeMachine({ root: true, has: ["/usr/bin/redis-server", "/usr/bin/chromium"] })
    const p = provisioner(sys)
    expect(p.redisServer()).toBe("/usr/bin/redis-server")
    expect(p.chromium()).toBe("/usr/bin/chromium")
    expect(runs).toEqual([])
  })

  it("a failing apt-get is one line saying what to install by hand", () => {
    const { sys } = fakeMachine({ root: true, aptFails: true })
    expect(() => provisioner(sys).redisServer()).toThrow(
      new ProvisionError("apt-get update failed (exit 100); install redis-server by hand"),
    )
  })

  it("CHROMIUM_PATH that does not exist is named, and nothing is installed", () => {
    const { sys, runs } = fakeMachine({ root: true })
    expect(() => provisioner(sys).chromium("/opt/none/chrome")).toThrow(new ProvisionError("CHROMIUM_PATH=/opt/none/chrome does not exist"))
    expect(runs).toEqual([])
  })

  describe("decided before the suites, installed beside the unit suite (plan, then install)", () => {
    it("as another user, the plan fails at once with one line naming both packages, and nothing runs", () => {
      const { sys, runs } = fakeMachine({ root: false })
      expect(() => provisioner(sys).plan()).toThrow(
        new ProvisionError(
          `Debian's chromium (admin browser test) and redis-server are missing: run "sudo apt-get install -y chromium redis-server", then npm test again`,
        ),
      )
      expect(runs).toEqual([])
    })

    it("as root, the plan names what is missing without running apt-get; install runs one update and one install", () => {
      const { sys, runs } = fakeMachine({
        root: true,
        has: ["/usr/bin/redis-server"],
        aptInstalls: { chromium: "/usr/bin/chromium" },
      })
      const p = provisioner(sys)
      const pkgs = p.plan()
      expect(pkgs).toEqual(["chromium"])
      expect(runs).toEqual([])
      p.install(pkgs)
      expect(runs).toEqual(["apt-get update -qq", "apt-get install -y -qq --no-install-recommends chromium"])
      expect(p.chromium()).toBe("/usr/bin/chromium")
    })

    it("both missing: one apt-get install of both, after which both are found", () => {
      const { sys, runs } = fakeMachine({
        root: true,
        aptInstalls: { chromium: "/usr/bin/chromium", "redis-server": "/usr/bin/redis-server" },
      })
      const p = provisioner(sys)
      p.install(p.plan())
      expect(runs).toEqual(["apt-get update -qq", "apt-get install -y -qq --no-install-recommends chromium redis-server"])
      expect([p.chromium(), p.redisServer()]).toEqual(["/usr/bin/chromium", "/usr/bin/redis-server"])
      expect(runs).toHaveLength(2)
    })

    it("nothing missing: an empty plan, and install does nothing", () => {
      const { sys, runs } = fakeMachine({ root: false, has: ["/usr/bin/redis-server", "/usr/bin/chromium"] })
      const p = provisioner(sys)
      expect(p.plan()).toEqual([])
      p.install([])
      expect(runs).toEqual([])
    })

    it("a CHROMIUM_PATH that does not exist fails the plan, for root too", () => {
      const { sys, runs } = fakeMachine({ root: true, has: ["/usr/bin/redis-server"] })
      expect(() => provisioner(sys).plan("/opt/none/chrome")).toThrow(new ProvisionError("CHROMIUM_PATH=/opt/none/chrome does not exist"))
      expect(runs).toEqual([])
    })
  })
})
