import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

/**
 * What ARCHITECTURE.md ("Layers") says of the imports of src/, checked on the sources themselves:
 * every import counts, type-only ones and `import('…')` included (a type-only cycle is still a
 * cycle for whoever reads the code).
 */
const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

interface Edge {
  from: string;
  to: string;
  line: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The file a relative specifier names (our imports spell the `.ts`), or null for a package. */
function target(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const path = resolve(dirname(from), specifier);
  for (const candidate of [path, `${path}.ts`, join(path, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return path;
}

function importsOf(file: string): Edge[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const edges: Edge[] = [];
  const add = (node: ts.Node, specifier: string) => {
    const to = target(file, specifier);
    if (to)
      edges.push({
        from: relative(SRC, file),
        to: relative(SRC, to),
        line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
      });
  };
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) add(node, node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) add(node, literal.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node, node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

const edges = sourceFiles(SRC).flatMap(importsOf);
const where = (e: Edge) => `${e.from}:${e.line} -> ${e.to}`;

test('src/ has no import cycle, type-only imports included', () => {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  // Tarjan's strongly connected components: any of more than one file is a cycle.
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!order.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) === order.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (next.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const file of next.keys()) if (!order.has(file)) connect(file);
  assert.deepEqual(cycles, [], `import cycles: ${cycles.map((c) => c.join(' <-> ')).join('; ')}`);
});

/** The two ways past a module's index.ts that ARCHITECTURE.md names. */
const SCHEMA = /^modules\/[\w-]+\/([\w-]+\/)*[\w-]+-schemas\.ts$/;
const CLI_BACKUP = new Set(
  ['backup-format.ts', 'backup-keys.ts', 'restore.ts'].map((f) => `modules/backup/${f}`),
);

test("a module is imported from outside only through its index.ts (schema files and the CLI's restore aside)", () => {
  const past = edges.filter((e) => {
    const into = /^modules\/([\w-]+)\//.exec(e.to)?.[1];
    if (!into || e.from.startsWith(`modules/${into}/`)) return false;
    if (e.to === `modules/${into}/index.ts`) return false;
    if (SCHEMA.test(e.to)) return false;
    if (e.from === 'cli/backup-commands.ts' && CLI_BACKUP.has(e.to)) return false;
    return true;
  });
  assert.deepEqual(past.map(where), []);
});

test('errors/, lib/ and db/ import no module, no http/ and nothing above them', () => {
  const low = /^(errors|lib|db)\//;
  const above = /^(modules|http|worker|cli)\/|^(app|services|runtime|main|readiness|shutdown)\.ts$/;
  const up = edges.filter((e) => low.test(e.from) && above.test(e.to));
  assert.deepEqual(up.map(where), []);
});
