/**
 * A sampled heap profile (the inspector's `HeapProfiler` sampling, as order-layers.ts and
 * survivors.ts take it) summed by allocation site: a site is the allocating function and, with
 * `frames` above 1, its callers, innermost first (`a < b < c`).
 *
 * @example
 * const { sites, total } = allocationSites(profile.head, 4);
 */
export interface HeapProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapProfileNode[];
}

/** A frame as printed: the function and its file from `node_modules/` or `src/` on (else its last two parts). */
function frameOf(f: HeapProfileNode['callFrame']): string {
  const file = /\/(node_modules|src)\//.test(f.url)
    ? f.url.replace(/^.*\/(node_modules|src)\//, '$1/')
    : f.url.split('/').slice(-2).join('/');
  return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
}

/** Bytes by allocation site, and their total. */
export function allocationSites(
  head: HeapProfileNode,
  frames = 1,
): { sites: Map<string, number>; total: number } {
  const sites = new Map<string, number>();
  let total = 0;
  const walk = (node: HeapProfileNode, stack: string[]) => {
    // only the callers a site names are kept
    const here = [...(frames > 1 ? stack.slice(-(frames - 1)) : []), frameOf(node.callFrame)];
    if (node.selfSize > 0) {
      const site = here.slice(-frames).reverse().join(' < ');
      sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) walk(child, here);
  };
  walk(head, []);
  return { sites, total };
}

/** The `shown` largest sites, each as bytes per unit (an order, a request) and the site. */
export function printSites(sites: Map<string, number>, units: number, shown: number) {
  for (const [site, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, shown))
    console.log(`${String(Math.round(bytes / units)).padStart(7)} B  ${site}`);
}
