/**
 * The face values (local currency) that prepaid airtime top-ups are sold in, for the countries with
 * the most prepaid subscribers: what a shop, an app or an aggregator offers for the main airtime
 * product of their operators (UK top-ups from £5 and £10, US refills from $10, Nigerian recharges
 * from ₦100, Indian talktime from ₹10, Philippine load from ₱10). A FIXED airtime operator of one of
 * these countries sells the first two and an even spread of the rest (scripts/build-operators.ts,
 * `ladderSet`); elsewhere its amounts stay drawn from the USD pool. Data, bundles and PIN vouchers
 * keep their plan prices. Figures are whole units of the country's currency, smallest first.
 */
export const FACE_VALUES: Readonly<Record<string, readonly string[]>> = {
  GB: ['5', '10', '15', '20', '25', '30'],
  US: ['10', '15', '20', '25', '30', '40', '50', '60'],
  CA: ['10', '15', '25', '30', '40', '50', '75', '100'],
  MX: ['10', '20', '30', '50', '100', '150', '200', '300', '500'],
  BR: ['10', '15', '20', '25', '30', '40', '50', '100'],
  IN: ['10', '20', '50', '100', '200', '500', '1000'],
  PK: ['100', '200', '300', '500', '1000'],
  BD: ['20', '50', '100', '200', '300', '500', '1000'],
  ID: ['5000', '10000', '20000', '25000', '50000', '100000', '200000'],
  PH: ['10', '15', '20', '30', '50', '100', '300', '500', '1000'],
  CN: ['30', '50', '100', '200', '300', '500'],
  NG: ['100', '200', '500', '1000', '2000', '5000', '10000'],
  GH: ['1', '2', '5', '10', '20', '50'],
  KE: ['10', '20', '50', '100', '250', '500', '1000'],
  EG: ['10', '15', '25', '50', '100', '200'],
  TR: ['50', '100', '150', '200', '300', '500'],
  RU: ['100', '200', '300', '500', '1000'],
  DE: ['15', '20', '25', '30', '50'],
  FR: ['5', '10', '15', '20', '25', '30', '40'],
  ES: ['5', '10', '15', '20', '25', '30', '50'],
  IT: ['5', '10', '15', '20', '25', '30', '50'],
};
