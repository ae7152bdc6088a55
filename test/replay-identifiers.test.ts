import { describe, expect, it } from "vitest";
import { extractIdentifiers, matchIdentifiers } from "../src/bench/replay/extract-identifiers.js";
import { findReferencePairs, sourceLineOf } from "../src/bench/replay/reference-pairs.js";
import { assistant, tool, user } from "./replay-support.js";

const kindsOf = (text: string) => matchIdentifiers(text).map((match) => `${match.kind}:${match.identifier}`);

describe("identifier extraction", () => {
  it("finds each kind", () => {
    expect(kindsOf("see https://docs.python.org/3/library/os.html for more")).toContain("url:https://docs.python.org/3/library/os.html");
    expect(kindsOf("edit astropy/modeling/separable.py now")).toContain("path:astropy/modeling/separable.py");
    expect(kindsOf("cat /testbed/setup.cfg")).toContain("path:/testbed/setup.cfg");
    expect(kindsOf("call os.path.join and open conf.py")).toEqual(expect.arrayContaining(["dotted:os.path.join", "dotted:conf.py"]));
    expect(kindsOf("the _coord_matrix and MAX_SIZE values")).toEqual(expect.arrayContaining(["snake:_coord_matrix", "snake:MAX_SIZE"]));
    expect(kindsOf("assertEqual(getX)")).toEqual(expect.arrayContaining(["camel:assertEqual", "camel:getX"]));
    expect(kindsOf("raise ValueError in CompoundModel")).toEqual(expect.arrayContaining(["pascal:ValueError", "pascal:CompoundModel"]));
    // Three digits match the number pattern, but the 4-character minimum applies to every kind.
    expect(kindsOf("line 242 of 1998 lines")).toEqual(["number:1998"]);
  });

  it("skips matches shorter than 4 characters and words that are no identifier", () => {
    expect(extractIdentifiers("a.b x_y 12 42 aB Python the Model")).toEqual([]);
    expect(extractIdentifiers("os.py a_bc 1234")).toEqual(["os.py", "a_bc", "1234"]);
  });

  it("strips trailing sentence punctuation", () => {
    expect(extractIdentifiers("Look at src/app/main.ts.")).toContain("src/app/main.ts");
    expect(extractIdentifiers("errors: parse_config; then 4096:")).toEqual(expect.arrayContaining(["parse_config", "4096"]));
    expect(extractIdentifiers("https://example.com/a/b, then")).toContain("https://example.com/a/b");
  });

  it("does not take a number out of a decimal or a word", () => {
    expect(extractIdentifiers("version 3.14159 and abc1234")).toEqual([]);
  });
});

describe("reference pairs", () => {
  it("counts an identifier only where a tool result introduces it and the model later writes it", () => {
    const messages = [
      user("task", "Fix parse_config in app/config.py"),
      assistant("a1", "Looking.", { id: "c1", name: "bash", args: { command: "grep -rn parse_config ." } }),
      tool("t1", "c1", "app/config.py:12: def parse_config(raw_text):\napp/loader.py:3: from app.config import parse_config\nuses load_settings"),
      assistant("a2", "The caller is in app/loader.py; raw_text is the argument.", { id: "c2", name: "bash", args: { command: "sed -n 1,20p app/loader.py" } }),
      tool("t2", "c2", "def load_settings(): ..."),
      assistant("a3", "load_settings is defined here."),
    ];
    const pairs = findReferencePairs("You fix bugs.", messages).sort((left, right) => left.identifier.localeCompare(right.identifier));
    // parse_config and app/config.py were in the task; load_settings first appeared in t1, not t2.
    expect(pairs).toEqual([
      { identifier: "app/loader.py", sourceIndex: 2, writtenIndex: 3, line: "app/loader.py:3: from app.config import parse_config" },
      { identifier: "load_settings", sourceIndex: 2, writtenIndex: 5, line: "uses load_settings" },
      { identifier: "loader.py", sourceIndex: 2, writtenIndex: 3, line: "app/loader.py:3: from app.config import parse_config" },
      { identifier: "raw_text", sourceIndex: 2, writtenIndex: 3, line: "app/config.py:12: def parse_config(raw_text):" },
    ]);
  });

  it("cuts a source line over 200 characters to the 200 around the identifier", () => {
    const long = `${"a ".repeat(150)}target_name${" b".repeat(150)}`;
    const line = sourceLineOf(`first\n   ${long}   \nlast`, "target_name");
    expect(line).toHaveLength(200);
    expect(line).toContain("target_name");
    expect(long.includes(line)).toBe(true);
    expect(sourceLineOf("x\n  short line with target_name  ", "target_name")).toBe("short line with target_name");
  });

  it("ignores identifiers the model wrote before the tool result showed them", () => {
    const messages = [
      user("task", "Fix it"),
      assistant("a1", "", { id: "c1", name: "bash", args: { command: "cat settings_loader.py" } }),
      tool("t1", "c1", "settings_loader.py: no such file"),
      assistant("a2", "settings_loader.py is missing."),
    ];
    expect(findReferencePairs("", messages)).toEqual([]);
  });
});
