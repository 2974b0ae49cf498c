import { describe, expect, it } from 'vitest'
import { detailsPatch } from './details-patch'

describe('detailsPatch: the alias and metadata as edited, as a JSON Patch', () => {
  it('sends nothing when nothing changed', () => {
    expect(detailsPatch({ alias: 'Acme', metadata: { erp: '1042' } }, 'Acme', [{ key: 'erp', value: '1042' }])).toEqual([])
  })

  it('adds, replaces and removes the alias', () => {
    expect(detailsPatch({ metadata: {} }, ' Acme ', [])).toEqual([{ op: 'add', path: '/alias', value: 'Acme' }])
    expect(detailsPatch({ alias: 'Acme', metadata: {} }, 'Acme EU', [])).toEqual([{ op: 'replace', path: '/alias', value: 'Acme EU' }])
    expect(detailsPatch({ alias: 'Acme', metadata: {} }, '  ', [])).toEqual([{ op: 'remove', path: '/alias' }])
  })

  it('adds, replaces and removes metadata entries one key at a time, ignoring rows without a key', () => {
    const before = { metadata: { erp: '1042', region: 'north', 'a/b': 'x' } }
    const rows = [
      { key: 'erp', value: '2001' },
      { key: 'region', value: 'north' },
      { key: 'cost.centre', value: 'CC-7' },
      { key: ' ', value: 'half typed' },
    ]
    expect(detailsPatch(before, '', rows)).toEqual([
      { op: 'remove', path: '/metadata/a~1b' },
      { op: 'replace', path: '/metadata/erp', value: '2001' },
      { op: 'add', path: '/metadata/cost.centre', value: 'CC-7' },
    ])
  })
})
