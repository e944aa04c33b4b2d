import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { AlertSettings, HttpSettings } from '../../platform/config/settings.js';
import { AlertDeliveriesRepository } from './alert-deliveries.repository.js';
import type { AlertDelivery } from './alert-delivery.entity.js';
import { AlertDeliveryError } from './alert-delivery.error.js';
import {
  type AlertEvent,
  alertSignature,
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  STATE_CHANGED,
  slackBody,
  TIMESTAMP_HEADER,
  webhookBody,
} from './alert-message.js';
import { AlertTargets } from './alert-targets.service.js';

/** What one delivery job did. */
export type AlertSendResult =
  | { deliveryId: string; delivered: true; status: number }
  | { deliveryId: string; skipped: 'not-pending' | 'target-removed' };

/** Longest part of a receiver's answer kept in the delivery's error. */
const ANSWER_CHARS = 200;

/**
 * Why: one attempt of one delivery: the target's URL and secret opened, the body built for its
 * kind (a signed JSON webhook, or Slack's `{"text"}`), POSTed with a timeout, and the attempt
 * recorded on the delivery whatever came of it. A failed attempt throws an `AlertDeliveryError`
 * that says whether waiting may help; the job guard retries it with back-off, or records it in
 * the failures inbox.
 */
@Injectable()
export class AlertSender {
  constructor(
    private readonly deliveries: AlertDeliveriesRepository,
    private readonly targets: AlertTargets,
    private readonly settings: AlertSettings,
    private readonly http: HttpSettings,
    private readonly clock: Clock,
  ) {}

  async send(deliveryId: string): Promise<AlertSendResult> {
    const delivery = await this.deliveries.get(deliveryId);
    if (delivery === null || delivery.state !== 'pending') return { deliveryId, skipped: 'not-pending' };
    const target = delivery.targetId === null ? null : await this.targets.get(delivery.targetId);
    if (target === null) {
      await this.deliveries.end(deliveryId, 'cancelled');
      return { deliveryId, skipped: 'target-removed' };
    }
    const at = new Date(this.clock.now());
    let opened: { url: string; secret: string | null };
    try {
      opened = this.targets.open(target);
    } catch (error) {
      await this.deliveries.attempted(
        deliveryId,
        { status: null, error: (error as Error).message, delivered: false },
        at,
      );
      throw error;
    }
    const event = eventOf(delivery, this.link());
    const body = target.kind === 'slack' ? slackBody(event) : webhookBody(event);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'User-Agent': 'catalog-connector-alerts',
    };
    if (target.kind === 'webhook') {
      const timestamp = Math.floor(at.getTime() / 1000);
      headers[TIMESTAMP_HEADER] = String(timestamp);
      headers[DELIVERY_HEADER] = delivery.id;
      headers[EVENT_HEADER] = STATE_CHANGED;
      if (opened.secret !== null) headers[SIGNATURE_HEADER] = alertSignature(opened.secret, timestamp, body);
    }
    const answer = await this.post(opened.url, headers, body);
    await this.deliveries.attempted(
      deliveryId,
      { status: answer.status, error: answer.error?.message ?? null, delivered: answer.error === null },
      at,
    );
    if (answer.error !== null) throw answer.error;
    return { deliveryId, delivered: true, status: answer.status ?? 0 };
  }

  /** POSTs the body: the receiver's status (null: no answer), and the error unless it took it (2xx). */
  private async post(
    url: string,
    headers: Record<string, string>,
    body: string,
  ): Promise<{ status: number | null; error: AlertDeliveryError | null }> {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      return {
        status: null,
        error: new AlertDeliveryError(
          'alert_receiver_unavailable',
          `The receiver did not answer (${cause}).`,
          true,
        ),
      };
    }
    if (response.status >= 200 && response.status < 300) {
      await response.body?.cancel();
      return { status: response.status, error: null };
    }
    const answer = (await response.text().catch(() => '')).slice(0, ANSWER_CHARS);
    const retryable = response.status >= 500 || response.status === 408 || response.status === 429;
    const words = `The receiver answered ${response.status}${answer === '' ? '' : `: ${answer}`}`;
    return {
      status: response.status,
      error: new AlertDeliveryError(
        retryable ? 'alert_receiver_unavailable' : 'alert_receiver_refused',
        retryable ? `${words}.` : `${words}. Not retried: check the target's URL and its receiver.`,
        retryable,
      ),
    };
  }

  /** The web view: `CONNECTOR_PUBLIC_URL`, else this process's own address. */
  private link(): string {
    const host = this.http.host === '0.0.0.0' || this.http.host === '::' ? '127.0.0.1' : this.http.host;
    return `${this.http.publicUrl ?? `http://${host}:${this.http.port}`}/admin/ui`;
  }
}

function eventOf(delivery: AlertDelivery, link: string): AlertEvent {
  return {
    id: delivery.id,
    shop: delivery.shop,
    from: delivery.fromState,
    to: delivery.toState,
    cause: delivery.cause,
    reasons: delivery.reasons,
    changedAt: delivery.changedAt,
    at: delivery.createdAt,
    link,
  };
}
