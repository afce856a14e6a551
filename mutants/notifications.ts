/** Mutants of the EVT clauses: the notifications of section 6. */
import { eachObject, editData, editNotifications, fabricatedConfirmation, rewriteCallbackQuery } from './edits.ts';
import type { Mutant } from './kinds.ts';

export const notificationMutants: Mutant[] = [
  {
    name: 'callback-notification-dropped',
    clause: 'EVT-1',
    description: 'No notification reaches `callbackUrl`.',
    transform: editNotifications((delivery) => (delivery.channel === 'callback' ? [] : [delivery])),
  },
  {
    name: 'callback-notification-sent-to-webhook',
    clause: 'EVT-1',
    description: 'Notifications meant for `callbackUrl` go to the webhook instead.',
    transform: editNotifications((delivery, proxy) =>
      delivery.channel !== 'callback' ? [delivery] : proxy.webhookUrl ? [{ ...delivery, to: proxy.webhookUrl }] : [],
    ),
  },
  {
    name: 'webhook-notification-sent-to-callback',
    clause: 'EVT-2',
    description: 'Notifications meant for the webhook go to the last callbackUrl instead (or nowhere).',
    transform: editNotifications((delivery, proxy) =>
      delivery.channel !== 'webhook' ? [delivery] : proxy.lastCallbackUrl ? [{ ...delivery, to: proxy.lastCallbackUrl }] : [],
    ),
  },
  {
    name: 'notification-without-ids',
    clause: 'EVT-3',
    description: 'Notifications carry no id and no reference of any kind.',
    transform: editNotifications((delivery) => {
      eachObject(delivery.json, (object) =>
        Object.keys(object)
          .filter((key) => /id$/i.test(key) || key === 'reference')
          .forEach((key) => delete object[key]),
      );
      return [delivery];
    }),
  },
  {
    name: 'notification-for-unpaid-reference',
    clause: 'EVT-4',
    description: 'A "payment confirmed" notification is sent right after a reference is created.',
    transform: editData(['createReference'], (data, proxy) => {
      const to = proxy.payments.get(data.id)?.callbackUrl ?? proxy.webhookUrl;
      if (to) proxy.postInBackground(to, fabricatedConfirmation(data));
    }),
  },
  {
    name: 'callback-query-dropped',
    clause: 'EVT-1',
    description: 'Notifications go to `callbackUrl` without its query string.',
    transform: editNotifications((delivery) => [
      delivery.channel === 'callback' && URL.canParse(delivery.to) ? { ...delivery, to: delivery.to.replace(/\?.*$/, '') } : delivery,
    ]),
  },
  {
    name: 'late-notification-for-unpaid-reference',
    clause: 'EVT-4',
    description: 'A "payment confirmed" notification is sent two seconds after a reference is created, unpaid.',
    transform: editData(['createReference'], (data, proxy) => {
      const to = proxy.payments.get(data.id)?.callbackUrl ?? proxy.webhookUrl;
      if (to) setTimeout(() => proxy.postInBackground(to, fabricatedConfirmation(data)), 2000);
    }),
  },
  {
    name: 'callback-query-decoded',
    clause: 'EVT-1',
    description: 'The notification goes to callbackUrl with its query percent-decoded: a plain query arrives as sent, an encoded `&` or space does not.',
    transform: rewriteCallbackQuery(decodeURIComponent),
  },
];
