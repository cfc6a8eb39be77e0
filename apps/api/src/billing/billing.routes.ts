import { CreditKinds, ListPayments, PaymentMethods, RecordPayment, SetLowBalanceThresholds, toCents, type Payment } from '@carteiro/core';
import { adminIdParam, defineRoute, reply } from '../http/route.js';
import { companyPageRoute } from '../shared/company-page-route.js';
import { component, INT4_MAX, s, typed } from '../http/schema.js';

interface PaymentBody {
  kind: (typeof CreditKinds)[number];
  units: number;
  amount: number;
  method: (typeof PaymentMethods)[number];
  external_ref: string;
  paid_at?: string;
}

type ThresholdsBody = Partial<Record<(typeof CreditKinds)[number], number | null>>;

const PaymentView = component(
  'Payment',
  s.object({
    id: s.uuid(),
    company_id: s.uuid(),
    kind: s.enum(CreditKinds),
    units: s.integer({ minimum: 1 }),
    amount: s.number({ minimum: 0, description: 'BRL.' }),
    method: s.enum(PaymentMethods),
    external_ref: s.string(),
    balance_after: s.integer(),
    paid_at: s.dateTime(),
    created_at: s.dateTime(),
  }),
);

function paymentView(p: Payment) {
  return {
    id: p.id,
    company_id: p.companyId,
    kind: p.kind,
    units: p.units,
    amount: p.amountCents / 100,
    method: p.method,
    external_ref: p.externalRef,
    balance_after: p.balanceAfter,
    paid_at: p.paidAt.toISOString(),
    created_at: p.createdAt.toISOString(),
  };
}

const thresholdValue = { type: ['integer', 'null'], minimum: 0, maximum: INT4_MAX, description: 'Units; null restores the default.' };
const Thresholds = s.object({ messages: s.nullableInteger(), ai_credits: s.nullableInteger(), lead_credits: s.nullableInteger() });

/** The operator's billing routes (business.md §8): payments and low-balance thresholds. */
export const billingAdminRoutes = [
  defineRoute({
    method: 'post',
    path: '/admin/v1/companies/:id/payments',
    auth: 'admin',
    operationId: 'adminRecordPayment',
    summary: 'Record a payment (credits a balance)',
    description:
      'Credits `units` of `kind` (messages: the avulso balance; lead_credits; ai_credits) and records `payment.received` in the same transaction; re-arms the kind\'s low-balance alert. Idempotent by `external_ref`: a replay answers 200 with the payment already recorded (201 the first time).',
    tag: 'Admin',
    params: { id: adminIdParam('company') },
    body: {
      schema: typed<PaymentBody>({
        type: 'object',
        required: ['kind', 'units', 'amount', 'method', 'external_ref'],
        additionalProperties: false,
        properties: {
          kind: { type: 'string', enum: [...CreditKinds] },
          units: { type: 'integer', minimum: 1, maximum: 100_000_000 },
          amount: { type: 'number', minimum: 0, maximum: 999_999_999, description: 'BRL, at most 2 decimals.' },
          method: { type: 'string', enum: [...PaymentMethods] },
          external_ref: { type: 'string', minLength: 1, maxLength: 200 },
          paid_at: { type: 'string', format: 'date-time' },
        },
      }),
      example: { kind: 'lead_credits', units: 500, amount: 99.9, method: 'pix', external_ref: 'pix-2026-11-0001' },
    },
    validationCode: 'BAD_REQUEST',
    response: { status: 201, description: 'The payment (200 on a replay).', data: PaymentView },
    errors: ['BAD_REQUEST', 'NOT_FOUND'],
    async handler({ params, body, use }) {
      const { payment, replayed } = await use(RecordPayment).execute(params.id, {
        kind: body.kind,
        units: body.units,
        amountCents: toCents(body.amount, 'amount'),
        method: body.method,
        externalRef: body.external_ref,
        paidAt: body.paid_at ? new Date(body.paid_at) : undefined,
      });
      return replayed ? reply(paymentView(payment), { status: 200 }) : paymentView(payment);
    },
  }),
  companyPageRoute({
    path: '/admin/v1/companies/:id/payments',
    operationId: 'adminListPayments',
    summary: "List a company's payments",
    description: 'Newest first.',
    item: PaymentView,
    list: (use, companyId, query) => use(ListPayments).execute(companyId, query),
    view: paymentView,
  }),
  defineRoute({
    method: 'put',
    path: '/admin/v1/companies/:id/low-balance-thresholds',
    auth: 'admin',
    operationId: 'adminSetLowBalanceThresholds',
    summary: "Set a company's low-balance thresholds",
    description: 'Per kind; omitted kinds keep theirs, null restores the default (messages 100, lead_credits 50, ai_credits none).',
    tag: 'Admin',
    params: { id: adminIdParam('company') },
    body: {
      schema: typed<ThresholdsBody>({
        type: 'object',
        additionalProperties: false,
        properties: { messages: thresholdValue, ai_credits: thresholdValue, lead_credits: thresholdValue },
      }),
      example: { lead_credits: 100 },
    },
    validationCode: 'BAD_REQUEST',
    response: { status: 200, description: 'The thresholds in force.', data: Thresholds },
    errors: ['BAD_REQUEST', 'NOT_FOUND'],
    async handler({ params, body, use }) {
      return use(SetLowBalanceThresholds).execute(params.id, body);
    },
  }),
];
