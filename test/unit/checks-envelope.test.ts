/** The checks of the envelope and of where an operation is served (src/checks/envelope.ts). */
import { checkEnvelope, checkServedAtPath } from '../../src/checks/index.ts';
import * as checksOfFile from '../../src/checks/envelope.ts';
import { checkCase, published, without, created, testCheckCases, type CheckCase } from '../support/check-cases.ts';

const checkCases: CheckCase[] = [
  checkCase('ENV-1', checkEnvelope, 'no date', {
    passes: [created(published.checkout()), { versioned: true }],
    fails: [created(without(published.checkout(), 'date')), { versioned: true }],
  }),
  checkCase('ENV-2', checkEnvelope, 'no apiVersion', { fails: [created(without(published.checkout(), 'apiVersion')), { versioned: true }] }),
  checkCase('ENV-4', checkServedAtPath, 'a 404', { passes: [created(published.checkout())], fails: [created({}, 404)] }),
  checkCase('ENV-4', checkServedAtPath, 'a redirect to /v1', {
    fails: [{ ...created({}, 308), response: { ...created({}, 308).response, headers: { location: 'http://target.test/v1/checkouts' } } }],
  }),
];

testCheckCases(checksOfFile, checkCases);
