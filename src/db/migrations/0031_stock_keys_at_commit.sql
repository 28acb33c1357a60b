-- Issue 30: a live order from the code stock draws its codes BEFORE its row is written, in the same
-- transaction (modules/orders/order-path.ts: the provider's `reserve`, then the debit with the order's
-- row, already SUCCESSFUL with its cards). So the codes' and the stock order's references to the
-- order are checked when the transaction commits, not when the draw's statement ends; a transaction
-- that drew codes for an order it did not write still fails (at its COMMIT) and keeps nothing.
ALTER TABLE giftcard_stock ALTER CONSTRAINT giftcard_stock_transaction_id_fkey
  DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE giftcard_stock_orders ALTER CONSTRAINT giftcard_stock_orders_transaction_id_fkey
  DEFERRABLE INITIALLY DEFERRED;
