/**
 * The cast of the sandbox bank's seeded history: customers, suppliers, acquirers, creditors and
 * employees an organization trades with. Each organization draws its own subset.
 */

export type IbanCountry = 'DE' | 'NL' | 'AT' | 'FI' | 'IE' | 'LU' | 'SE'

export interface CatalogParty {
  name: string
  country: IbanCountry
  /** NL and IE IBANs carry a bank code of letters. */
  bankCode?: string
}

export const EUR_CUSTOMERS: readonly CatalogParty[] = [
  { name: 'Müller Maschinenbau GmbH', country: 'DE' },
  { name: 'Brightwave B.V.', country: 'NL', bankCode: 'RABO' },
  { name: 'Nordlicht Logistik GmbH', country: 'DE' },
  { name: 'Kaffeerösterei Schmidt KG', country: 'DE' },
  { name: 'Helios Energy Oy', country: 'FI' },
  { name: 'Alpenblick Hotels AG', country: 'AT' },
  { name: 'Van Dijk Retail B.V.', country: 'NL', bankCode: 'INGB' },
  { name: 'Fischer & Söhne OHG', country: 'DE' },
  { name: 'Lumen Software GmbH', country: 'DE' },
  { name: 'Emerald Analytics Ltd', country: 'IE', bankCode: 'AIBK' },
  { name: 'Studio Nachtfalter GbR', country: 'DE' },
  { name: 'Donau Medizintechnik GmbH', country: 'AT' },
  { name: 'Moselle Trading S.à r.l.', country: 'LU' },
  { name: 'Polaris Design Oy', country: 'FI' },
  { name: 'Hanse Verpackung GmbH', country: 'DE' },
  { name: 'De Vries Bouw B.V.', country: 'NL', bankCode: 'ABNA' },
  { name: 'Bäckerei Wagner e.K.', country: 'DE' },
  { name: 'Celtic Outdoor Ltd', country: 'IE', bankCode: 'BOFI' },
  { name: 'Rheinland Elektro GmbH', country: 'DE' },
  { name: 'Tiroler Holzbau GmbH', country: 'AT' },
]

export const EUR_SUPPLIERS: readonly CatalogParty[] = [
  { name: 'Bürobedarf Krause GmbH', country: 'DE' },
  { name: 'Cloudhaus Hosting GmbH', country: 'DE' },
  { name: 'Schenker Spedition AG', country: 'DE' },
  { name: 'Printwerk Berlin GmbH', country: 'DE' },
  { name: 'Van Leeuwen Packaging B.V.', country: 'NL', bankCode: 'RABO' },
  { name: 'Steuerberatung Hoffmann & Partner', country: 'DE' },
  { name: 'Kaufmann Rechtsanwälte PartG', country: 'DE' },
  { name: 'Grünwerk Facility Services GmbH', country: 'DE' },
  { name: 'Nordic Components Oy', country: 'FI' },
  { name: 'Alpine Metals GmbH', country: 'AT' },
  { name: 'Dublin Data Services Ltd', country: 'IE', bankCode: 'AIBK' },
  { name: 'Luxprint S.A.', country: 'LU' },
  { name: 'Mediahaus Becker GmbH', country: 'DE' },
  { name: 'Werkzeug Zimmermann KG', country: 'DE' },
]

export const EUR_ACQUIRERS: readonly CatalogParty[] = [
  { name: 'Adyen N.V.', country: 'NL', bankCode: 'ADYB' },
  { name: 'Stripe Payments Europe Ltd', country: 'IE', bankCode: 'CITI' },
  { name: 'Worldline Payment Services', country: 'LU' },
]

/** Creditors that collect by SEPA direct debit every month, with the usual day and a range in whole euros. */
export interface RecurringCreditor extends CatalogParty {
  day: number
  min: number
  max: number
  what: string
}

export const EUR_RECURRING: readonly RecurringCreditor[] = [
  { name: 'Immobilienverwaltung Lindner GmbH', country: 'DE', day: 1, min: 3_800, max: 11_500, what: 'Miete Büro' },
  { name: 'Stadtwerke Energie GmbH', country: 'DE', day: 15, min: 380, max: 1_450, what: 'Abschlag Strom/Gas' },
  { name: 'Allianz Versicherungs-AG', country: 'DE', day: 3, min: 220, max: 960, what: 'Betriebshaftpflicht' },
  { name: 'Telekom Deutschland GmbH', country: 'DE', day: 20, min: 90, max: 420, what: 'Mobilfunk und Festnetz' },
  { name: 'Leasing Partner Bank AG', country: 'DE', day: 5, min: 450, max: 2_300, what: 'Leasingrate Fahrzeuge' },
]

export const SEK_CUSTOMERS: readonly CatalogParty[] = [
  { name: 'Björkström Bygg AB', country: 'SE' },
  { name: 'Lindqvist Konsult AB', country: 'SE' },
  { name: 'Norrsken Media AB', country: 'SE' },
  { name: 'Vättern Livsmedel AB', country: 'SE' },
  { name: 'Sundberg & Co HB', country: 'SE' },
  { name: 'Fjällvik Resor AB', country: 'SE' },
  { name: 'Ekholm Industri AB', country: 'SE' },
  { name: 'Göta Design AB', country: 'SE' },
]

export const SEK_SUPPLIERS: readonly CatalogParty[] = [
  { name: 'Skandia Kontorsmaterial AB', country: 'SE' },
  { name: 'Postnord Sverige AB', country: 'SE' },
  { name: 'Telia Sverige AB', country: 'SE' },
  { name: 'Nordic Freight AB', country: 'SE' },
]

export const SEK_ACQUIRERS: readonly CatalogParty[] = [{ name: 'Klarna Bank AB', country: 'SE' }]

export const FIRST_NAMES = [
  'Anna', 'Lukas', 'Sophie', 'Jonas', 'Mia', 'Felix', 'Lea', 'Paul', 'Emma', 'Leon', 'Clara', 'Maximilian',
  'Hannah', 'Elias', 'Marie', 'Noah', 'Laura', 'Finn', 'Julia', 'David', 'Sara', 'Tim', 'Nora', 'Jan',
] as const

export const LAST_NAMES = [
  'Schneider', 'Becker', 'Wagner', 'Hofmann', 'Schulz', 'Koch', 'Richter', 'Klein', 'Wolf', 'Neumann',
  'Schwarz', 'Braun', 'Zimmermann', 'Krüger', 'Hartmann', 'Lange', 'Werner', 'Krause', 'Meier', 'Lehmann',
] as const

export const MONTHS_DE = [
  'Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember',
] as const
