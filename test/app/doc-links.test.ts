/**
 * The README and docs/ stay navigable: every relative link and image in README.md and docs/**\/*.md
 * points to a file of the repository (never outside it), and every #anchor to a heading of its target
 * file (GitHub's heading ids); the README stays short enough to read first (its details go to docs/)
 * and its index names every document of docs/.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..', '..');
const README_MAX_LINES = 250;

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
  );
}

/** The text outside fenced code blocks, line by line (a `#` in a shell block is no heading). */
function proseLines(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence === undefined && opening) {
      fence = opening[1];
      return '';
    }
    if (fence !== undefined) {
      if (line.trim().startsWith(fence)) fence = undefined;
      return '';
    }
    return line;
  });
}

/** GitHub's ids for the headings of a file: lower case, punctuation dropped, spaces to hyphens, -1, -2 for repeats. */
export function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .toLowerCase();
    const base = text.replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

/** Every link and image target in the prose of a file (inline code spans left out). */
function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(markdown)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      targets.push(m[1]);
  }
  return targets;
}

const FILES = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];

test('every relative link in README.md and docs/ points to a file and heading of the repository', () => {
  const problems: string[] = [];
  for (const file of FILES) {
    const where = relative(ROOT, file);
    for (const target of linkTargets(readFileSync(file, 'utf8'))) {
      if (/^(https?|mailto):/i.test(target)) continue;
      const [path, anchor] = target.split('#', 2) as [string, string | undefined];
      const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      if (resolved !== ROOT && !resolved.startsWith(ROOT + sep)) {
        problems.push(`${where}: ${target} points outside the repository`);
        continue;
      }
      if (!existsSync(resolved)) {
        problems.push(`${where}: ${target}: no such file`);
        continue;
      }
      if (anchor === undefined) continue;
      if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) {
        problems.push(`${where}: ${target}: an anchor into something that is not a Markdown file`);
      } else if (!headingIds(readFileSync(resolved, 'utf8')).has(anchor)) {
        problems.push(`${where}: ${target}: ${relative(ROOT, resolved)} has no heading #${anchor}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test('the docs name nothing outside the repository as a place to read', () => {
  for (const file of FILES) {
    assert.ok(
      !/\.\.\/shared\//.test(readFileSync(file, 'utf8')),
      `${relative(ROOT, file)} points to ../shared/`,
    );
  }
});

test(`README.md stays under ${README_MAX_LINES} lines (the rest belongs in docs/)`, () => {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length;
  assert.ok(lines < README_MAX_LINES, `README.md has ${lines} lines`);
});

test("every document in docs/ has its line in the README's Where to read on", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const index = readme.slice(readme.indexOf('## Where to read on'));
  for (const file of markdownFiles(join(ROOT, 'docs'))) {
    const path = relative(ROOT, file).split(sep).join('/');
    assert.ok(index.includes(`](${path})`), `README.md's Where to read on does not link ${path}`);
  }
});

test('heading ids are the ones GitHub makes', () => {
  const ids = headingIds(
    '# The `airgift` command\n## 2. Sign-in lock-out\n## The live catalogue: sync and margin\n```sh\n# not a heading\n```\n## Targets (SSRF)\n## Notes\n## Notes\n',
  );
  assert.deepEqual(
    [...ids],
    [
      'the-airgift-command',
      '2-sign-in-lock-out',
      'the-live-catalogue-sync-and-margin',
      'targets-ssrf',
      'notes',
      'notes-1',
    ],
  );
});
