// `npm run demo` (tsx): the plugin's main job in one command. See docs/demo.md.
// The demo lives in demo/ (typecheck: `npx tsc -p demo`). It is required by a computed path so
// that the plugin build (`medusa plugin:build` compiles scripts/) does not compile and ship it.
const entry = ["..", "demo", "main"].join("/")
// eslint-disable-next-line @typescript-eslint/no-require-imports
const demo = require(entry) as { main(argv: string[]): Promise<void> }
void demo.main(process.argv.slice(2))
