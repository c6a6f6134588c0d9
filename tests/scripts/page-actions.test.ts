// The page rows of the authorisation matrix name every route module with an action.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { PAGE_ACTIONS } from "../page-actions.ts";

describe("page actions", () => {
  it("are exactly the paths whose route module exports an action", async () => {
    const config = await readFile("app/routes.ts", "utf8");
    // route("path", "file") at the top level, or nested under route("admin", ...).
    const withAction: string[] = [];
    for (const match of config.matchAll(/(?:route\("([^"]+)",\s*|index\()"(routes\/[^"]+)"/g)) {
      const [, path, file] = match;
      const source = await readFile(`app/${file}`, "utf8");
      if (!/export (async )?function action\b|export const action\b/.test(source)) continue;
      const full =
        file!.startsWith("routes/admin/") && path && !path.startsWith("admin/") ? `/admin/${path}` : `/${path ?? ""}`;
      withAction.push(full);
    }
    expect([...PAGE_ACTIONS].sort()).toEqual(withAction.sort());
  });
});
