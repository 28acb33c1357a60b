/**
 * The one order path of both products (README.md): `createOrderPath(deps, adapter)`, the adapter a
 * product writes (`OrderAdapter`), and the deps object both products are built from.
 */
export type { FirstStep, NewOrder, OrderAdapter, OrderRow, OrderRows, OrderTypes } from './order-adapter.ts';
export {
  createOrderPath,
  DEBIT_REFUSALS,
  type OrderPath,
  type OrderPathDeps,
  RESCUE_AFTER_MS,
} from './order-path.ts';
export type { ProductDeps } from './product-deps.ts';
