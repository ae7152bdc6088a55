import { describe, expect, it } from "vitest";
import { describeSystemError } from "./describe-system-error.js";

function systemError(fields: { code: string; syscall?: string; path?: string; dest?: string }): Error {
  return Object.assign(new Error(`${fields.code}: Node's own words`), fields);
}

describe("describeSystemError", () => {
  it("names both paths of a two-path call, and does not call an existing link a file where a folder should be", () => {
    const message = describeSystemError(systemError({ code: "EEXIST", syscall: "symlink", path: "/data/target", dest: "/data/link" }));
    expect(message).toMatch(/^cannot symlink \/data\/target -> \/data\/link: it already exists \(EEXIST\)\./);
    expect(describeSystemError(systemError({ code: "EEXIST", syscall: "mkdir", path: "/data/a-file" }))).toContain("a file is in the way where a folder should be");
  });

  it("leaves errors it has no words for, or without a path, to the caller", () => {
    expect(describeSystemError(systemError({ code: "EXDEV", syscall: "rename", path: "/a", dest: "/b" }))).toBeUndefined();
    expect(describeSystemError(systemError({ code: "EACCES", syscall: "connect" }))).toBeUndefined();
    expect(describeSystemError(new Error("plain"))).toBeUndefined();
  });
});
