import { describe, expect, it } from 'vitest'
import { minorUnits } from './amount.js'
import { CsvFileError, readTransferCsv } from './credit-transfer-csv.js'
import { transferBody } from './credit-transfer-fields.js'

const HEADER = 'sourceAccountId,destinationExternalAccountId,amount,currency,date,reference,externalId'

describe('readTransferCsv', () => {
  it('reads RFC 4180 rows: quoted commas, quotes and line breaks, a byte order mark, empty cells as absent', () => {
    const rows = readTransferCsv(`\uFEFF${HEADER}\r\nS1,E1,1250.00,EUR,2026-03-02,"Invoice 7, March",erp-1\r\n\r\nS2,E2,0.07,EUR,2026-03-03,"Said ""hi""\nand left",\r\n`)
    expect(rows).toEqual([
      {
        row: 1,
        fields: { sourceAccountId: 'S1', destinationExternalAccountId: 'E1', amount: '1250.00', currency: 'EUR', date: '2026-03-02', reference: 'Invoice 7, March', externalId: 'erp-1' },
      },
      {
        row: 2,
        fields: { sourceAccountId: 'S2', destinationExternalAccountId: 'E2', amount: '0.07', currency: 'EUR', date: '2026-03-03', reference: 'Said "hi"\nand left' },
      },
    ])
  })

  it('numbers rows from the first after the header; a row with another cell count is refused on its own', () => {
    const rows = readTransferCsv(`${HEADER}\nS1,E1,1,EUR,2026-03-02,r1,\nS2,E2,1,EUR\nS3,E3,1,EUR,2026-03-02,r3,\n`)
    expect(rows.map((row) => row.row)).toEqual([1, 2, 3])
    expect(rows[1]).toEqual({ row: 2, problem: 'the row has 4 cells, the header 7' })
    expect(rows[2]).toMatchObject({ row: 3, fields: { reference: 'r3' } })
  })

  it.each([
    ['', 'the file is empty'],
    ['sourceAccountId,destinationAccountId,ammount,currency,date,reference\n', 'unknown column "ammount"'],
    ['sourceAccountId,destinationAccountId,amount,amount,currency,date,reference\n', 'column "amount" appears twice'],
    ['sourceAccountId,destinationAccountId,amount,date,reference\n', 'missing column currency'],
    ['sourceAccountId,amount,currency,date,reference\n', 'missing column destinationAccountId or destinationExternalAccountId'],
    [`${HEADER}\nS1,E1,1,EUR,2026-03-02,"unclosed\n`, 'Quote Not Closed'],
    [`${HEADER}\nS1,E1,1,EUR,2026-03-02,"${'x'.repeat(5_000)}",\n`, 'Max Record Size'],
  ])('refuses the whole file when it is wrong as a whole: %j', (content, message) => {
    expect(() => readTransferCsv(content)).toThrow(CsvFileError)
    expect(() => readTransferCsv(content)).toThrow(message)
  })
})

describe('minorUnits', () => {
  it.each([
    ['1.15', 'EUR', 115],
    ['0.07', 'EUR', 7],
    ['1250', 'EUR', 125000],
    ['1250.10', 'EUR', 125010],
    ['9007199254740.99', 'EUR', 900719925474099],
    // Math.round(45035996273704.02 * 100) is 4503599627370403: a float cannot hold this amount.
    ['45035996273704.02', 'EUR', 4503599627370402],
    ['100', 'JPY', 100],
    ['1.005', 'KWD', 1005],
    ['2.50', 'JPY', undefined],
  ])('%s %s is %s minor units, exactly', (amount, currency, value) => {
    if (value === undefined) expect(() => minorUnits(amount, currency)).toThrow('has more than 0 decimals for JPY')
    else expect(minorUnits(amount, currency)).toEqual({ currency, value })
  })

  it('refuses what is not a plain decimal, and unknown currencies', () => {
    expect(() => minorUnits('1,50', 'EUR')).toThrow('amount "1,50" is not a decimal number')
    expect(() => minorUnits('1.5e3', 'EUR')).toThrow('is not a decimal number')
    expect(() => minorUnits('12.505', 'EUR')).toThrow('amount "12.505" has more than 2 decimals for EUR')
    expect(() => minorUnits('9007199254740.992', 'EUR')).toThrow('has more than 2 decimals')
    expect(() => minorUnits('90071992547409.93', 'EUR')).toThrow('or is too large')
    expect(() => minorUnits('1', 'EURO')).toThrow('currency "EURO" is not an ISO 4217 currency code')
  })
})

describe('transferBody', () => {
  it('builds the request body from the flat fields, leaving absent ones out', () => {
    expect(transferBody({ sourceAccountId: 'S', destinationExternalAccountId: 'E', amount: '19.99', currency: 'EUR', date: '2026-03-02', reference: 'r' })).toEqual({
      amount: { currency: 'EUR', value: 1999 },
      date: '2026-03-02',
      source: { type: 'ACCOUNT', id: 'S' },
      destination: { type: 'EXTERNAL_ACCOUNT', id: 'E' },
      reference: 'r',
    })
    expect(transferBody({ destinationAccountId: 'A', scheme: 'SCT_INST', externalId: 'x' })).toEqual({
      destination: { type: 'ACCOUNT', id: 'A' },
      scheme: 'SCT_INST',
      externalId: 'x',
    })
  })

  it('refuses two destinations, and an amount or a currency alone', () => {
    expect(() => transferBody({ destinationAccountId: 'A', destinationExternalAccountId: 'E' })).toThrow('not both')
    expect(() => transferBody({ amount: '1' })).toThrow('give amount and currency together')
    expect(() => transferBody({ currency: 'EUR' })).toThrow('give amount and currency together')
  })
})
