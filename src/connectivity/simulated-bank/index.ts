import { setFileAnswer } from '../../financial-data/sandbox/index.js'
import { answerByFile } from './file-answers.js'

/**
 * The sandbox's simulated bank behind a FILES connection (issue 12; docs/sandbox-bank.md): it takes the connection's
 * pain files (intake.ts), lets the sandbox bank run them at its pace, and answers every change by file
 * (file-answers.ts) that reaches the inbox after commit (delivery.ts).
 */
setFileAnswer(answerByFile)

export { deliverAnswers } from './delivery.js'
export { takeFiles } from './intake.js'
