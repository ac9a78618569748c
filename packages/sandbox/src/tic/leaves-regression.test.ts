import { searchTics } from "."

// the property in evaluation.test.ts found it (seeded at random: "leaves", a known word "leave" + s)
it('"leaves" and "leaf" find something ("tea leaves")', () => {
  for (const q of ["leaves", "leaf", "LEAVES", "tea leaves"])
    expect({ q, found: searchTics(q, 3).results.length > 0 }).toEqual({ q, found: true })
})
