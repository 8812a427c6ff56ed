/**
 * The support desk's shop: ten orders, and the desk's tools over them. Each run of the desk gets
 * its own copy of the orders (`shop()`), so conversations never see each other's changes.
 */
import { tool } from '@agent-trace/core';
import { z } from 'zod';

/** An order as the `order` tool shows it. */
export interface Order {
  readonly id: number;
  readonly item: string;
  readonly amount: number;
  status: 'processing' | 'shipped' | 'delivered' | 'cancelled' | 'refunded';
  address: string;
}

const orders: readonly Order[] = [
  { id: 41, item: 'a teapot', amount: 80, status: 'delivered', address: '3 Elm St, York' },
  { id: 42, item: 'a rug', amount: 120, status: 'shipped', address: '9 Oak Rd, Bath' },
  { id: 43, item: 'a chair', amount: 45, status: 'processing', address: '1 Quai Sud, Lyon' },
  { id: 44, item: 'a lamp', amount: 30, status: 'delivered', address: '7 Via Roma, Turin' },
  { id: 45, item: 'a kettle', amount: 25, status: 'processing', address: '2 Mill Ln, Ely' },
  { id: 46, item: 'a mirror', amount: 95, status: 'delivered', address: '5 Kade, Delft' },
  { id: 47, item: 'a desk', amount: 250, status: 'shipped', address: '8 Ring, Graz' },
  { id: 48, item: 'a vase', amount: 40, status: 'processing', address: '4 Calle Mayor, Soria' },
  { id: 49, item: 'a clock', amount: 70, status: 'shipped', address: '6 Rua Nova, Porto' },
  { id: 50, item: 'a shelf', amount: 60, status: 'shipped', address: '12 High St, Leeds' },
];

/** A fresh copy of the shop's orders and the desk's tools over it. */
export function shop() {
  const byId = new Map(orders.map(order => [order.id, { ...order }]));
  const find = (id: number): Order => {
    const found = byId.get(id);
    if (found === undefined) throw new Error(`No order ${id}.`);
    return found;
  };
  const orderInput = z.object({ id: z.number().int() });
  return {
    orders: byId,
    tools: [
      tool({
        name: 'order',
        description: 'An order by its number: item, amount in dollars, status, address',
        input: orderInput,
        execute: ({ id }) => find(id),
      }),
      tool({
        name: 'refund',
        description: 'Refunds an order in full',
        input: orderInput,
        execute: ({ id }) => {
          const order = find(id);
          order.status = 'refunded';
          return { id, refunded: order.amount };
        },
      }),
      tool({
        name: 'change_address',
        description: 'Sends an order that has not shipped to another address',
        input: z.object({ id: z.number().int(), address: z.string().min(1) }),
        execute: ({ id, address }) => {
          const order = find(id);
          if (order.status !== 'processing') throw new Error(`Order ${id} has already shipped.`);
          order.address = address;
          return { id, address };
        },
      }),
      tool({
        name: 'cancel',
        description: 'Cancels an order that has not shipped',
        input: orderInput,
        execute: ({ id }) => {
          const order = find(id);
          if (order.status !== 'processing') throw new Error(`Order ${id} has already shipped.`);
          order.status = 'cancelled';
          return { id, cancelled: true };
        },
      }),
    ],
  };
}
