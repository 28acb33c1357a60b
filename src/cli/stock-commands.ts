import { existsSync, readFileSync } from 'node:fs';
import { Argument, type Command } from 'commander';
import type { ProductProvider, StockLine } from '../../sdk/src/index.ts';
import { type JsonOption, leaf, type Run, wholeNumber } from './command-parts.ts';
import { CliError } from './connect.ts';

/** Stock lines as aligned text. */
function stockText(lines: StockLine[]): string {
  if (lines.length === 0) return 'no codes in stock';
  const head = 'product  face value       available  sold  expired  pre-ordered  provider  name';
  const rows = lines.map(
    (l) =>
      `${String(l.productId).padEnd(8)} ${`${l.faceValue} ${l.currencyCode}`.padEnd(16)} ${String(l.available).padStart(9)} ${String(l.sold).padStart(5)} ${String(l.expired).padStart(8)} ${String(l.preOrdered).padStart(12)}  ${l.provider.padEnd(8)}  ${l.productName}`,
  );
  return [head, ...rows].join('\n');
}

/** `stock import|show` and `products provider`: the live code stock of gift card products. */
export function addStockCommands(program: Command, run: Run): void {
  const stock = program.command('stock').description('the live code stock of gift card products');

  leaf(stock, 'import', "load a codes file into a product's stock (all of it, or nothing)")
    .requiredOption('--product <id>', 'product id', wholeNumber)
    .requiredOption(
      '--file <path>',
      "CSV with the header cardNumber,pinCode,faceValue[,expiresAt] (faceValue in the product's recipient currency)",
    )
    .action((o: JsonOption & { product: number; file: string }) =>
      run(o.json, async (admin) => {
        if (!existsSync(o.file)) throw new CliError(`${o.file} does not exist`);
        const result = await admin.stock.import(o.product, readFileSync(o.file, 'utf8'));
        return {
          json: result,
          text: `imported ${result.imported} codes into product ${result.productId}\n${stockText(result.stock)}`,
        };
      }),
    );

  leaf(stock, 'show', 'codes per product and face value: available, sold, expired, pre-ordered')
    .option('--product <id>', 'only this product', wholeNumber)
    .action((o: JsonOption & { product?: number }) =>
      run(o.json, async (admin) => {
        const report = await admin.stock.show(o.product === undefined ? {} : { productId: o.product });
        return { json: report, text: stockText(report.items) };
      }),
    );
}

/** `products provider ID stock|upstream|default`, beside `products activate|deactivate`. */
export function addProviderCommand(products: Command, run: Run): void {
  leaf(products, 'provider', 'who fulfils a live product: its code stock, the upstream, or the default')
    .argument('<id>', 'product id', wholeNumber)
    .addArgument(
      new Argument(
        '<provider>',
        'stock, upstream (refused while no upstream is configured) or default',
      ).choices(['stock', 'upstream', 'default']),
    )
    .action((id: number, provider: ProductProvider, o: JsonOption) =>
      run(o.json, async (admin) => {
        const r = await admin.products.setProvider(id, provider);
        return { json: r, text: `live orders of product ${r.productId} go to: ${r.provider}` };
      }),
    );
}
