import { oneLine } from '../../lib/text.js';
import { escapeHtml, SMS_MAX, type EmailMessage } from '../webhooks/send.js';
import { AlertPayloadSchema, type AlertPayload } from './stored.js';

/**
 * What a maintenance alert says by email and SMS (docs/notifications.md "Maintenance alerts"), from its outbox
 * payload: the same content rules as the form notifications (every value on one line, escaped in HTML, the SMS at
 * most SMS_MAX characters).
 */
const STATUS_WORDS: Record<AlertPayload['status'], string> = { due_soon: 'due soon', due: 'due now', overdue: 'overdue' };

function num(n: number): string {
  return String(n);
}

/** "8 Airframe hours and 5 days remaining", "3 Landings past due", ... */
export function remainingText(p: AlertPayload): string {
  const parts: string[] = [];
  const unit = p.trackingItem ? oneLine(p.trackingItem) : 'units';
  const r = p.remaining ?? {};
  if (typeof r.hours === 'number') parts.push(r.hours >= 0 ? `${num(r.hours)} ${unit} remaining` : `${num(-r.hours)} ${unit} past due`);
  if (typeof r.days === 'number') {
    const d = r.days;
    parts.push(d > 0 ? `${d} day${d === 1 ? '' : 's'} remaining` : d === 0 ? 'due today' : `${-d} day${d === -1 ? '' : 's'} past due`);
  }
  return parts.join(', ');
}

export function alertSubject(p: AlertPayload): string {
  return `Maintenance ${STATUS_WORDS[p.status] ?? oneLine(String(p.status))}: ${oneLine(p.title)} on ${oneLine(p.asset?.name ?? '')}`;
}

export function alertEmail(raw: Record<string, unknown>): EmailMessage {
  const p = AlertPayloadSchema.parse(raw);
  const v = (x: unknown) => oneLine(String(x ?? ''));
  const h = (x: unknown) => escapeHtml(v(x));
  const rows: [string, string][] = [
    ['Item', v(p.title)],
    ['Asset', `${v(p.asset?.name)} (${v(p.asset?.type)})`],
    ['Status', STATUS_WORDS[p.status] ?? v(p.status)],
    ['Remaining', remainingText(p)],
  ];
  if (p.dueAt) rows.push(['Due date', v(p.dueAt)]);
  if (typeof p.dueAtValue === 'number') rows.push(['Due at', `${num(p.dueAtValue)}${p.trackingItem ? ` ${v(p.trackingItem)}` : ''}`]);
  const subject = alertSubject(p);
  const text = `${subject}\n\n${rows.map(([k, x]) => `${k}: ${x}`).join('\n')}\n\nItem ${v(p.itemUid)}, alert ${v(p.alertId)}, raised ${v(p.raisedAt)}.\n`;
  const cell = 'style="text-align:left;vertical-align:top;padding:4px 8px;border-bottom:1px solid #ddd"';
  const html = [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><title>${h(subject)}</title></head>`,
    '<body style="font-family:sans-serif;color:#222">',
    `<h1 style="font-size:18px">${h(subject)}</h1>`,
    `<table style="border-collapse:collapse"><tbody>${rows.map(([k, x]) => `<tr><th scope="row" ${cell}>${h(k)}</th><td ${cell}>${h(x)}</td></tr>`).join('')}</tbody></table>`,
    `<p style="color:#555">Item ${h(p.itemUid)}, alert ${h(p.alertId)}, raised ${h(p.raisedAt)}.</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

export function alertSms(raw: Record<string, unknown>): string {
  const p = AlertPayloadSchema.parse(raw);
  const text = `Fleet Ops: ${alertSubject(p)}. ${remainingText(p)}${p.dueAt ? ` (due ${oneLine(p.dueAt)})` : ''}.`;
  const chars = Array.from(text);
  return chars.length <= SMS_MAX ? text : chars.slice(0, SMS_MAX - 1).join('') + '\u2026';
}
