import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applyStack,
  type Discount,
  type DiscountOrder,
  type ItemTarget,
  type Redeemable,
} from '../../../src/engine/discounts/index.js';
import { alone, item, order, outcome, part } from './support.js';

const SHOP: DiscountOrder = {
  items: [
    { product_id: 'mug', price: 2000 },
    { product_id: 'pen', price: 8000 },
    { product_id: 'tee', price: 5000 },
  ],
};
/**
 * The three lines with this view's applied discounts and discounted units (`d`, `q`), and what
 * came before in the stack or in earlier requests (`previous`, with its units `pq`).
 */
const shop = (d: number[], q: number[], previous: number[] = [0, 0, 0], pq: number[] = [0, 0, 0]) =>
  ['mug', 'pen', 'tee'].map((id, i) =>
    item({
      product_id: id,
      quantity: 1,
      price: [2000, 8000, 5000][i] as number,
      discount: d[i],
      previous: previous[i],
      discount_quantity: Math.max(q[i] as number, pq[i] as number),
      applied_discount_quantity: q[i],
    }),
  );
const use = (discount: Discount, items?: ItemTarget[]): Redeemable => ({ kind: 'discount', discount, items });

describe('engine: stacks', () => {
  it("the reference's stacked validation example: gift 100, then 20% of what is left, then 8000", () => {
    const stack: Redeemable[] = [
      { kind: 'gift', balance: 5000, credits: 100 },
      use({ type: 'PERCENT', percent_off: 20 }),
      use({ type: 'AMOUNT', amount_off: 8000 }),
    ];
    const after = (previous: number, discount: number, total: number) =>
      order({ amount: 200000, previous, discount, total_amount: total }, []);
    assert.deepEqual(applyStack({ amount: 200000, items: [] }, stack), {
      ok: true,
      order: after(0, 48080, 151920),
      redeemables: [
        outcome('gift', 100, [], after(0, 100, 199900)),
        outcome('discount', 39980, [], after(100, 39980, 159920)),
        outcome('discount', 8000, [], after(40080, 8000, 151920)),
      ],
    });
  });

  it('each discount works on what the earlier ones left; each result carries the order after it', () => {
    const afterFirst = order({ amount: 15000, total_amount: 14000 }, shop([1000, 0, 0], [1, 0, 0]));
    const afterSecond = order(
      { amount: 15000, discount: 1400, total_amount: 12600 },
      shop([0, 0, 0], [0, 0, 0], [1000, 0, 0], [1, 0, 0]),
    );
    const final = order({ amount: 15000, discount: 1400, total_amount: 12600 }, shop([1000, 0, 0], [1, 0, 0]));
    const result = applyStack(SHOP, [
      use({ type: 'AMOUNT', amount_off: 1000, effect: 'APPLY_TO_ITEMS' }, [{ index: 0 }]),
      use({ type: 'PERCENT', percent_off: 10 }),
    ]);
    assert.deepEqual(result, {
      ok: true,
      order: final,
      redeemables: [outcome('discount', 0, [part(0, 1000, 1)], afterFirst), outcome('discount', 1400, [], afterSecond)],
    });
  });

  it('percentages on the same item compound: 50% then 50% of what is left', () => {
    const afterFirst = order({ amount: 15000, total_amount: 14000 }, shop([1000, 0, 0], [1, 0, 0]));
    const afterSecond = order(
      { amount: 15000, total_amount: 13500 },
      shop([500, 0, 0], [1, 0, 0], [1000, 0, 0], [1, 0, 0]),
    );
    const final = order({ amount: 15000, total_amount: 13500 }, shop([1500, 0, 0], [1, 0, 0]));
    const half = use({ type: 'PERCENT', percent_off: 50, effect: 'APPLY_TO_ITEMS' }, [{ index: 0 }]);
    assert.deepEqual(applyStack(SHOP, [half, half]), {
      ok: true,
      order: final,
      redeemables: [
        outcome('discount', 0, [part(0, 1000, 1)], afterFirst),
        outcome('discount', 0, [part(0, 500, 1)], afterSecond),
      ],
    });
  });

  it('after the whole order is discounted, an item discount has no effect (zero floor on the order)', () => {
    const after = order({ amount: 15000, discount: 15000, total_amount: 0 }, shop([0, 0, 0], [0, 0, 0]));
    const afterNothing = order({ amount: 15000, previous: 15000, total_amount: 0 }, shop([0, 0, 0], [0, 0, 0]));
    const result = applyStack(SHOP, [
      use({ type: 'PERCENT', percent_off: 100 }),
      use({ type: 'AMOUNT', amount_off: 500, effect: 'APPLY_TO_ITEMS' }),
    ]);
    assert.deepEqual(result, {
      ok: true,
      order: after,
      redeemables: [
        outcome('discount', 15000, [], after),
        {
          kind: 'discount',
          discount_amount: 0,
          order_discount_amount: 0,
          items_discount_amount: 0,
          items: [],
          no_effect: true,
          credits_used: 0,
          order: afterNothing,
        },
      ],
    });
  });

  it("a sent order amount below the items' sum caps item discounts, shared by largest remainder", () => {
    const input: DiscountOrder = { amount: 1000, items: [{ price: 2000 }, { price: 3000 }] };
    const after = order({ amount: 1000, total_amount: 0 }, [
      item({ quantity: 1, price: 2000, discount: 400, discount_quantity: 1 }),
      item({ quantity: 1, price: 3000, discount: 600, discount_quantity: 1 }),
    ]);
    assert.deepEqual(
      applyStack(input, [use({ type: 'AMOUNT', amount_off: 3000, effect: 'APPLY_TO_ITEMS' })]),
      alone('discount', 0, [part(0, 400, 1), part(1, 600, 1)], after),
    );
  });

  it('discounts of earlier requests stay; applied_* count this request only', () => {
    const input: DiscountOrder = {
      ...SHOP,
      discount_amount: 1000,
      items: SHOP.items.map((line, i) => (i === 0 ? { ...line, discount_amount: 500, discount_quantity: 1 } : line)),
    };
    const after = order({ amount: 15000, previous: 1000, discount: 13500, total_amount: 0 }, [
      item({
        product_id: 'mug',
        quantity: 1,
        price: 2000,
        previous: 500,
        discount_quantity: 1,
        applied_discount_quantity: 0,
      }),
      ...shop([0, 0, 0], [0, 0, 0]).slice(1),
    ]);
    assert.deepEqual(
      applyStack(input, [use({ type: 'AMOUNT', amount_off: 20000 })]),
      alone('discount', 13500, [], after),
    );
  });

  it('ONCE leaves items that carry a discount to it', () => {
    const afterFirst = order({ amount: 15000, total_amount: 14900 }, shop([100, 0, 0], [1, 0, 0]));
    const afterSecond = order(
      { amount: 15000, total_amount: 13600 },
      shop([0, 800, 500], [0, 1, 1], [100, 0, 0], [1, 0, 0]),
    );
    const final = order({ amount: 15000, total_amount: 13600 }, shop([100, 800, 500], [1, 1, 1]));
    const stack = [
      use({ type: 'AMOUNT', amount_off: 100, effect: 'APPLY_TO_ITEMS' }, [{ index: 0 }]),
      use({ type: 'PERCENT', percent_off: 10, effect: 'APPLY_TO_ITEMS' }),
    ];
    assert.deepEqual(applyStack(SHOP, stack, { products_application_mode: 'ONCE' }), {
      ok: true,
      order: final,
      redeemables: [
        outcome('discount', 0, [part(0, 100, 1)], afterFirst),
        outcome('discount', 0, [part(1, 800, 1), part(2, 500, 1)], afterSecond),
      ],
    });
  });

  it('targets not (yet) in the order are passed over; a target named twice counts once', () => {
    const after = order({ amount: 15000, total_amount: 14700 }, shop([300, 0, 0], [1, 0, 0]));
    assert.deepEqual(
      applyStack(SHOP, [
        use({ type: 'AMOUNT', amount_off: 300, effect: 'APPLY_TO_ITEMS' }, [{ index: 3 }, { index: 0 }, { index: 0 }]),
      ]),
      alone('discount', 0, [part(0, 300, 1)], after),
    );
  });

  it('items a unit discount added are targets for the later redeemables', () => {
    const detail = {
      target_index: 3,
      target_applied_quantity: 2,
      target_applied_quantity_amount: 600,
      target_applied_discount_amount: 600,
    };
    const cap = item({
      product_id: 'cap',
      quantity: 2,
      price: 300,
      discount: 600,
      discount_quantity: 2,
      added: 2,
      added_amount: 600,
      details: [detail],
    });
    const capSeenLater = {
      ...cap,
      applied_discount_amount: 0,
      applied_discount_quantity: 0,
      applied_quantity: 0,
      applied_quantity_amount: 0,
      application_details: [],
    };
    const afterUnit = order({ amount: 15600, initial_amount: 15000, total_amount: 15000 }, [
      ...shop([0, 0, 0], [0, 0, 0]),
      cap,
    ]);
    const afterGift = order({ amount: 15600, initial_amount: 15000, discount: 15000, total_amount: 0 }, [
      ...shop([0, 0, 0], [0, 0, 0]),
      capSeenLater,
    ]);
    const final = order({ amount: 15600, initial_amount: 15000, discount: 15000, total_amount: 0 }, [
      ...shop([0, 0, 0], [0, 0, 0]),
      cap,
    ]);
    const stack: Redeemable[] = [
      {
        kind: 'discount',
        discount: { type: 'UNIT', unit_off: 2, unit_type: 'cap', effect: 'ADD_NEW_ITEMS' },
        unit_prices: { cap: 300 },
      },
      { kind: 'gift', balance: 90000 },
    ];
    assert.deepEqual(applyStack(SHOP, stack), {
      ok: true,
      order: final,
      redeemables: [
        outcome('discount', 0, [part(3, 600, 2, 2, 600)], afterUnit),
        outcome('gift', 15000, [], afterGift),
      ],
    });
  });

  it('figures that cannot be computed come back as problems, all at once', () => {
    const input: DiscountOrder = {
      amount: -5,
      items: [
        { price: 100, quantity: 1.5 },
        { amount: 10.5, discount_amount: -1 },
      ],
    };
    assert.deepEqual(
      applyStack(input, [use({ type: 'AMOUNT', amount_off: 1 }, [{ index: -1 }, { index: 0, quantity_limit: 0.5 }])]),
      {
        ok: false,
        problems: [
          'amount must be a whole number >= 0',
          'items[0].quantity must be a whole number >= 0',
          'items[1].amount must be a whole number >= 0',
          'items[1].discount_amount must be a whole number >= 0',
          'stack[0].items[0].index must be a whole number >= 0',
          'stack[0].items[1].quantity_limit must be a whole number >= 0',
        ],
      },
    );
  });

  it("discounts beyond the amounts they discount come back as the order amounts' problems", () => {
    const input: DiscountOrder = { amount: 100, discount_amount: 90, items: [{ amount: 10, discount_amount: 20 }] };
    assert.deepEqual(applyStack(input, []), {
      ok: false,
      problems: ["items[0].discount_amount must not exceed the item's amount (10)"],
    });
  });

  it('discount figures that are not numbers >= 0 give nothing', () => {
    const after = order({ amount: 15000, total_amount: 15000 }, shop([0, 0, 0], [0, 0, 0]));
    const nothing = {
      kind: 'discount' as const,
      discount_amount: 0,
      order_discount_amount: 0,
      items_discount_amount: 0,
      items: [],
      no_effect: true,
      credits_used: 0,
      order: after,
    };
    const stack = [
      use({ type: 'AMOUNT', amount_off: Number.NaN }),
      use({ type: 'PERCENT', percent_off: -10 }),
      use({ type: 'UNIT', unit_off: -2, unit_type: 'mug' }),
    ];
    assert.deepEqual(applyStack(SHOP, stack), { ok: true, order: after, redeemables: [nothing, nothing, nothing] });
  });
});

describe('engine: gift credits', () => {
  const gift = (balance: number, credits?: number, items?: ItemTarget[]): Redeemable => ({
    kind: 'gift',
    balance,
    credits,
    effect: items ? 'APPLY_TO_ITEMS' : undefined,
    items,
  });

  it('pay what the discounts left, never more than that', () => {
    const afterDiscount = order({ amount: 15000, discount: 5000, total_amount: 10000 }, shop([0, 0, 0], [0, 0, 0]));
    const afterGift = order(
      { amount: 15000, previous: 5000, discount: 10000, total_amount: 0 },
      shop([0, 0, 0], [0, 0, 0]),
    );
    const final = order({ amount: 15000, discount: 15000, total_amount: 0 }, shop([0, 0, 0], [0, 0, 0]));
    assert.deepEqual(applyStack(SHOP, [use({ type: 'AMOUNT', amount_off: 5000 }), gift(50000, 20000)]), {
      ok: true,
      order: final,
      redeemables: [outcome('discount', 5000, [], afterDiscount), outcome('gift', 10000, [], afterGift)],
    });
  });

  it("never more than the card's balance, nor than the credits offered", () => {
    assert.deepEqual(
      applyStack(SHOP, [gift(3000, 5000)]),
      alone(
        'gift',
        3000,
        [],
        order({ amount: 15000, discount: 3000, total_amount: 12000 }, shop([0, 0, 0], [0, 0, 0])),
      ),
    );
    assert.deepEqual(
      applyStack(SHOP, [gift(9000, 1000)]),
      alone(
        'gift',
        1000,
        [],
        order({ amount: 15000, discount: 1000, total_amount: 14000 }, shop([0, 0, 0], [0, 0, 0])),
      ),
    );
  });

  it('APPLY_TO_ITEMS shares the credits by what is left of each item', () => {
    const after = order({ amount: 15000, total_amount: 14000 }, shop([200, 800, 0], [1, 1, 0]));
    assert.deepEqual(
      applyStack(SHOP, [gift(5000, 1000, [{ index: 0 }, { index: 1 }])]),
      alone('gift', 0, [part(0, 200, 1), part(1, 800, 1)], after),
    );
  });

  it('an order already paid takes no credits: no effect', () => {
    const after = order({ amount: 15000, discount: 15000, total_amount: 0 }, shop([0, 0, 0], [0, 0, 0]));
    const afterNothing = order({ amount: 15000, previous: 15000, total_amount: 0 }, shop([0, 0, 0], [0, 0, 0]));
    assert.deepEqual(applyStack(SHOP, [gift(20000), gift(500)]), {
      ok: true,
      order: after,
      redeemables: [
        outcome('gift', 15000, [], after),
        {
          kind: 'gift',
          discount_amount: 0,
          order_discount_amount: 0,
          items_discount_amount: 0,
          items: [],
          no_effect: true,
          credits_used: 0,
          order: afterNothing,
        },
      ],
    });
  });
});
