import { parseXml, select, type XmlNode } from './xml-tree.js'

/**
 * The values a bank acts on in a pain.001 or pain.008, read from any generator's file and named the same
 * whatever the message and version: what the cross-check compares.
 */

/** The text of a leaf element at `path`; undefined when absent or when it has children. */
function leaf(node: XmlNode, path: string): string | undefined {
  const [found] = select(node, path)
  return found && found.children.length === 0 ? found.text : undefined
}

/** A party's bank: its BICFI (2019 versions), BIC (2009) or Othr/Id (NOTPROVIDED). */
function bank(node: XmlNode, path: string): string | undefined {
  return leaf(node, `${path}/FinInstnId/BICFI`) ?? leaf(node, `${path}/FinInstnId/BIC`) ?? leaf(node, `${path}/FinInstnId/Othr/Id`)
}

export function whatTheBankReads(xml: string) {
  const document = parseXml(xml)
  const root = document.children[0]!
  return {
    namespace: document.attributes.xmlns,
    messageId: leaf(root, 'GrpHdr/MsgId'),
    numberOfTransactions: leaf(root, 'GrpHdr/NbOfTxs'),
    controlSum: leaf(root, 'GrpHdr/CtrlSum'),
    initiatingParty: leaf(root, 'GrpHdr/InitgPty/Nm'),
    paymentInformation: select(root, 'PmtInf').map((information) => {
      const own = leaf(information, 'PmtMtd') === 'DD' ? 'Cdtr' : 'Dbtr'
      const other = own === 'Dbtr' ? 'Cdtr' : 'Dbtr'
      return {
        id: leaf(information, 'PmtInfId'),
        method: leaf(information, 'PmtMtd'),
        batchBooking: leaf(information, 'BtchBookg'),
        numberOfTransactions: leaf(information, 'NbOfTxs'),
        controlSum: leaf(information, 'CtrlSum'),
        serviceLevel: leaf(information, 'PmtTpInf/SvcLvl/Cd'),
        localInstrument: leaf(information, 'PmtTpInf/LclInstrm/Cd'),
        sequenceType: leaf(information, 'PmtTpInf/SeqTp'),
        date: leaf(information, 'ReqdExctnDt/Dt') ?? leaf(information, 'ReqdExctnDt') ?? leaf(information, 'ReqdColltnDt'),
        name: leaf(information, `${own}/Nm`),
        iban: leaf(information, `${own}Acct/Id/IBAN`),
        bank: bank(information, `${own}Agt`),
        chargeBearer: leaf(information, 'ChrgBr'),
        creditorSchemeId: leaf(information, 'CdtrSchmeId/Id/PrvtId/Othr/Id'),
        transactions: [...select(information, 'CdtTrfTxInf'), ...select(information, 'DrctDbtTxInf')].map((transaction) => {
          const [amount] = [...select(transaction, 'Amt/InstdAmt'), ...select(transaction, 'InstdAmt')]
          return {
            instructionId: leaf(transaction, 'PmtId/InstrId'),
            endToEndId: leaf(transaction, 'PmtId/EndToEndId'),
            amount: amount?.text,
            currency: amount?.attributes.Ccy,
            mandateId: leaf(transaction, 'DrctDbtTx/MndtRltdInf/MndtId'),
            mandateSignatureDate: leaf(transaction, 'DrctDbtTx/MndtRltdInf/DtOfSgntr'),
            amendment: leaf(transaction, 'DrctDbtTx/MndtRltdInf/AmdmntInd'),
            name: leaf(transaction, `${other}/Nm`),
            iban: leaf(transaction, `${other}Acct/Id/IBAN`),
            bank: bank(transaction, `${other}Agt`),
            remittance: leaf(transaction, 'RmtInf/Ustrd'),
          }
        }),
      }
    }),
  }
}
