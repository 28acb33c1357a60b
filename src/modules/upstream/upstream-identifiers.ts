/**
 * The customIdentifier airgift sends for one of its transactions: derived, so a retry never buys twice.
 *
 * @example
 * upstreamCustomIdentifier('live', 10042); // 'ag-live-10042'
 */
export function upstreamCustomIdentifier(environment: string, transactionId: number): string {
  return `ag-${environment}-${transactionId}`;
}
