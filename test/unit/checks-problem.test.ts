/** checkSuccess, told its clause (src/checks/problem.ts). */
import { checkSuccess } from '../../src/checks/index.ts';
import * as checksOfFile from '../../src/checks/problem.ts';
import { checkCase, published, created, paymentAnswer, methodsAnswer, testCheckCases, type CheckCase } from '../support/check-cases.ts';

const checkCases: CheckCase[] = [
  checkCase('CHK-1', checkSuccess, 'a 500', { passes: [created(published.checkout()), 'CHK-1'], fails: [created({}, 500), 'CHK-1'] }),
  checkCase('PML-1', checkSuccess, 'a 404', { fails: [methodsAnswer({}, 404), 'PML-1'] }),
  checkCase('REF-3', checkSuccess, 'a 404', { fails: [paymentAnswer({}, 404), 'REF-3'] }),
];

testCheckCases(checksOfFile, checkCases);
