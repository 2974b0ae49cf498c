import { describe, expect, it } from 'vitest'
import { element, escapeXml, serializeDocument } from './xml-text.js'

describe('escapeXml', () => {
  it('escapes the characters XML gives a meaning, and only those', () => {
    expect(escapeXml(`a & b < c > d "e" 'f' ]]> ü 😀`)).toBe(`a &amp; b &lt; c &gt; d &quot;e&quot; 'f' ]]&gt; ü 😀`)
  })

  it('leaves an entity-looking text as text: &amp; is written as &amp;amp;', () => {
    expect(escapeXml('&amp;')).toBe('&amp;amp;')
  })
})

describe('serializeDocument', () => {
  it('writes the declaration, nested elements indented, text inline, attributes escaped and undefined children left out', () => {
    const document = element('Document', [element('Amt', '1.00', { Ccy: 'E"R' }), undefined, element('Nm', 'A & B')], { xmlns: 'urn:x' })
    expect(serializeDocument(document)).toBe(
      ['<?xml version="1.0" encoding="UTF-8"?>', '<Document xmlns="urn:x">', '  <Amt Ccy="E&quot;R">1.00</Amt>', '  <Nm>A &amp; B</Nm>', '</Document>', ''].join('\n'),
    )
  })
})
