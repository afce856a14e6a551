/** The checks of the hosted pages and redirects (src/checks/pages.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkAmountShown,
  checkAtmPageReference,
  checkConsentOffer,
  checkFormInsideWidgets,
  checkNothingPostedToAction,
  checkPaymentPageOpens,
  checkRedirect,
} from '../../src/checks/index.ts';
import * as checksOfFile from '../../src/checks/pages.ts';
import { clausesOf, checkCase, notification, testCheckCases, type CheckCase } from '../support/check-cases.ts';

test('redirects keep the action URL and its query and append id; amounts read in major units', () => {
  const context = { actionUrl: 'http://127.0.0.1:5000/action/a?order=7', checkoutId: 'abc', clause: 'PAGE-3' as const };
  assert.deepEqual(checkRedirect('http://127.0.0.1:5000/action/a?order=7&id=abc', context), []);
  assert.deepEqual(checkRedirect('http://127.0.0.1:5000/action/a?id=abc&order=7&x=1', context), []);
  for (const wrong of [
    'http://127.0.0.1:5000/action/a?id=abc',
    'http://127.0.0.1:5000/action/b?order=7&id=abc',
    'http://127.0.0.1:5000/action/a?order=7',
    null,
  ]) {
    assert.deepEqual(clausesOf(checkRedirect(wrong, context)), ['PAGE-3'], String(wrong));
  }
  assert.deepEqual(checkRedirect('myshop://paid?order=7&id=abc', { ...context, actionUrl: 'myshop://paid?order=7', clause: 'PAGE-4' }), []);
  assert.deepEqual(checkAmountShown('Total: 5,00 €', { amount: 500, where: 'page' }), []);
  assert.deepEqual(checkAmountShown('€1,234.56', { amount: 123456, where: 'page' }), []);
  assert.deepEqual(checkAmountShown('12.34 EUR', { amount: 1234, where: 'page' }), []);
  assert.deepEqual(clausesOf(checkAmountShown('500,00 €', { amount: 500, where: 'page' })), ['CHK-8']);
  assert.deepEqual(clausesOf(checkAmountShown('15,00 €', { amount: 500, where: 'page' })), ['CHK-8']);
});

const page = { url: 'http://target.test/pay/1', status: 200, formCount: 3, text: 'Pay 5,00 €' };
const atmPage = { url: 'http://target.test/pay/2', text: 'Entidade 12797 Referência 002 460 930', referenceText: '002 460 930', entityText: '12797' };

const checkCases: CheckCase[] = [
  checkCase('CHK-8', checkAmountShown, 'major units read as minor', { fails: ['500,00 €', { amount: 500, where: 'page' }] }),
  checkCase('PAGE-1', checkPaymentPageOpens, 'a 500', { passes: [page], fails: [{ ...page, status: 500 }] }),
  checkCase('PAGE-1', checkPaymentPageOpens, 'no response', { fails: [{ ...page, status: null }] }),
  checkCase('PAGE-1', checkPaymentPageOpens, 'no form', { fails: [{ ...page, formCount: 0 }] }),
  checkCase('PAGE-1', checkPaymentPageOpens, 'an ATM page without the reference', {
    passes: [{ ...page, formCount: 0, text: atmPage.text }, { atm: true }],
    fails: [{ ...page, formCount: 0, text: 'Not found' }, { atm: true }],
  }),
  checkCase('PAGE-2', checkFormInsideWidgets, 'nothing rendered', {
    passes: [{ scriptUrl: page.url, formCount: 2, html: '<input>' }],
    fails: [{ scriptUrl: page.url, formCount: 0, html: '' }],
  }),
  checkCase('PAGE-3', checkRedirect, 'no id', {
    fails: ['https://shop.test/done', { actionUrl: 'https://shop.test/done', checkoutId: 'abc', clause: 'PAGE-3' }],
  }),
  checkCase('PAGE-4', checkRedirect, 'a mangled deep link', {
    fails: ['myshop:/paid?id=abc', { actionUrl: 'myshop://paid', checkoutId: 'abc', clause: 'PAGE-4' }],
  }),
  checkCase('PAGE-5', checkAtmPageReference, 'a reference cut to 8 digits', {
    passes: [atmPage, { paymentId: '1', apiReference: '002460930' }],
    fails: [{ ...atmPage, referenceText: '002 460 93' }, { paymentId: '1' }],
  }),
  checkCase('PAGE-5', checkAtmPageReference, 'no entity', { fails: [{ ...atmPage, entityText: ' ' }, { paymentId: '1' }] }),
  checkCase('PAGE-5', checkAtmPageReference, "another entity than the API's", {
    passes: [
      { ...atmPage, referenceText: atmPage.text, entityText: atmPage.text },
      { paymentId: '1', apiReference: '002460930', apiEntity: '12797' },
    ],
    fails: [atmPage, { paymentId: '1', apiEntity: '12798' }],
  }),
  checkCase('PAGE-5', checkAtmPageReference, "another reference than the API's", {
    passes: [atmPage, { paymentId: '1' }],
    fails: [atmPage, { paymentId: '1', apiReference: '002460931' }],
  }),
  checkCase('PAGE-5', checkAtmPageReference, "a page without a reference, whatever the API's reference is (one that is no 9-digit string is REF-2's)", {
    passes: [atmPage, { paymentId: '1', apiReference: 2460930, apiEntity: 12797 }],
    fails: [
      { ...atmPage, referenceText: 'pay at an ATM' },
      { paymentId: '1', apiReference: 2460930 },
    ],
  }),
  checkCase('PAGE-6', checkConsentOffer, 'no offer with allowRegistration', {
    passes: [{ url: page.url, consentOffered: true }, { details: { allowRegistration: true } }],
    fails: [{ url: page.url, consentOffered: false }, { details: { allowRegistration: true } }],
  }),
  checkCase('PAGE-6', checkConsentOffer, 'no offer with allowRegistration beside createRegistration false', {
    passes: [{ url: page.url, consentOffered: true }, { details: { createRegistration: false, allowRegistration: true } }],
    fails: [{ url: page.url, consentOffered: false }, { details: { createRegistration: false, allowRegistration: true } }],
  }),
  checkCase('PAGE-6', checkConsentOffer, 'an offer without allowRegistration', {
    passes: [{ url: page.url, consentOffered: false }, { details: undefined }],
    fails: [{ url: page.url, consentOffered: true }, { details: undefined }],
  }),
  checkCase('PAGE-6', checkConsentOffer, 'an offer with allowRegistration false', {
    passes: [{ url: page.url, consentOffered: false }, { details: { allowRegistration: false } }],
    fails: [{ url: page.url, consentOffered: true }, { details: { allowRegistration: false } }],
  }),
  checkCase('PAGE-6', checkConsentOffer, 'an offer for createRegistration alone', {
    passes: [{ url: page.url, consentOffered: false }, { details: { createRegistration: true } }],
    fails: [{ url: page.url, consentOffered: true }, { details: { createRegistration: true, allowRegistration: false } }],
  }),
  checkCase('PAGE-7', checkNothingPostedToAction, 'a POST beside the browser', {
    passes: [[notification(undefined, 'GET')], { browserVisited: true }],
    fails: [[notification(undefined, 'GET'), notification({ state: 'paid' })], { browserVisited: true }],
  }),
  checkCase('PAGE-7', checkNothingPostedToAction, 'a GET with no browser', {
    passes: [[], { browserVisited: false }],
    fails: [[notification(undefined, 'GET')], { browserVisited: false }],
  }),
];

testCheckCases(checksOfFile, checkCases);
