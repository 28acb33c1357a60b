import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { Admin, CatalogImport, UpstreamProduct } from '../../sdk/src/index.ts';
import {
  type JsonOption,
  leaf,
  type Output,
  productArgument,
  type Run,
  wholeNumber,
} from './command-parts.ts';
import { CliError } from './connect.ts';
import { addProviderCommand } from './stock-commands.ts';

/** A catalog file, or a seed directory (categories.json, brands.json, products.json) read as one. */
function readCatalog(path: string): CatalogImport {
  if (!existsSync(path)) throw new CliError(`${path} does not exist`);
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
  if (!statSync(path).isDirectory()) return read(path);
  // The seed layout; a file left out is a list left out (the import takes a partial catalog).
  const present = ['categories', 'brands', 'products'].filter((k) => existsSync(join(path, `${k}.json`)));
  if (present.length === 0)
    throw new CliError(`${path} holds none of categories.json, brands.json, products.json`);
  return Object.fromEntries(present.map((k) => [k, read(join(path, `${k}.json`))]));
}

/**
 * `catalog import|export|sync` and `products activate|deactivate|provider`: the gift card catalog;
 * `topup-operators activate|deactivate`: the top-up operators.
 */
export function addCatalogCommands(program: Command, run: Run): void {
  const catalog = program.command('catalog').description('the gift card catalog, in the seed format');

  leaf(catalog, 'import', 'add or update categories, brands and products by id')
    .argument(
      '<path>',
      "a catalog file (any of its three lists may be left out), or a directory of the seed's files",
    )
    .action((path: string, o: JsonOption) =>
      run(o.json, async (admin) => {
        const counts = await admin.catalog.import(readCatalog(path));
        return {
          json: counts,
          text: `imported ${counts.categories} categories, ${counts.brands} brands, ${counts.products} products`,
        };
      }),
    );

  leaf(catalog, 'export', 'the whole catalog (airgift catalog export > catalog.json)').action(
    (o: JsonOption) =>
      run(o.json, async (admin) => {
        const file = await admin.catalog.export();
        return { json: file, text: JSON.stringify(file, null, 2) };
      }),
  );

  leaf(catalog, 'sync', "pull the upstream's catalogue into the live catalogue now (the margin applied)")
    .addArgument(productArgument())
    .action((product: UpstreamProduct, o: JsonOption) =>
      run(o.json, async (admin) => {
        const r = await admin.catalog.sync(product);
        const counts = Object.entries(r.counts)
          .map(([k, v]) => `${v} ${k}`)
          .join(', ');
        return {
          json: r,
          text: `${r.product} synced at ${r.syncedAt} (margin ${r.marginPercent}%): ${counts}`,
        };
      }),
    );

  const products = program.command('products').description('gift card products');
  addToggleCommands(
    products,
    run,
    ['listed and orderable again', 'hidden from lists; orders and its page answer 400'],
    'product id',
    async (admin, action, id) => {
      const p = await admin.products[action](id);
      return { json: p, text: `product ${p.productId} is ${p.status}` };
    },
  );
  addProviderCommand(products, run);

  const operators = program.command('topup-operators').description('top-up operators');
  addToggleCommands(
    operators,
    run,
    [
      'listed, detected and taking top-ups again',
      'hidden from lists and auto-detect; top-ups to it answer 422',
    ],
    'operator id',
    async (admin, action, id) => {
      const r = await admin.topupOperators[action](id);
      return { json: r, text: `top-up operator ${r.operatorId} is ${r.status}` };
    },
  );
}

/** `activate <id>` and `deactivate <id>` of one kind of thing: their descriptions, in that order. */
function addToggleCommands(
  group: Command,
  run: Run,
  descriptions: [activate: string, deactivate: string],
  idName: string,
  toggle: (admin: Admin, action: 'activate' | 'deactivate', id: number) => Promise<Output>,
): void {
  for (const action of ['activate', 'deactivate'] as const) {
    leaf(group, action, descriptions[action === 'activate' ? 0 : 1])
      .argument('<id>', idName, wholeNumber)
      .action((id: number, o: JsonOption) => run(o.json, (admin) => toggle(admin, action, id)));
  }
}
