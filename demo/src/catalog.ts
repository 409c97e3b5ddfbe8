/** The demo store's catalog: a handful of safety products, each with the ids the data layer carries. */
export interface Product {
  sku: string;
  name: string;
  price: number;
  /** The leaf category the data layer reports on the product's page (page.category). */
  leafCategoryId: string;
  leafCategoryName: string;
  blurb: string;
}

export const CATEGORY = { id: 'N-8x1', name: 'Safety & PPE', level: '2' } as const;

export const PRODUCTS: readonly Product[] = [
  { sku: '4KM91', name: 'Safety Glasses, Clear Lens', price: 8.49, leafCategoryId: 'N-8y2', leafCategoryName: 'Safety Glasses', blurb: 'Wraparound polycarbonate lens, anti-fog, ANSI Z87.1+.' },
  { sku: '5AB12', name: 'Nitrile Gloves, Box of 100', price: 14.99, leafCategoryId: 'N-8y5', leafCategoryName: 'Disposable Gloves', blurb: 'Powder-free, 5 mil, textured fingertips. Size L.' },
  { sku: '3NX27', name: 'Hard Hat, Type I Class E', price: 23.5, leafCategoryId: 'N-8y7', leafCategoryName: 'Hard Hats', blurb: 'HDPE shell, 4-point ratchet suspension, white.' },
  { sku: '2TT88', name: 'Earmuffs, NRR 25 dB', price: 19.75, leafCategoryId: 'N-8y9', leafCategoryName: 'Hearing Protection', blurb: 'Over-the-head, dielectric, foam cushions.' },
  { sku: '7HV41', name: 'Hi-Vis Safety Vest, Class 2', price: 11.2, leafCategoryId: 'N-8z1', leafCategoryName: 'Hi-Visibility Clothing', blurb: 'Lime mesh, reflective tape, zip front. Size XL.' },
  { sku: '1RB09', name: 'N95 Respirator, 20 Pack', price: 27.9, leafCategoryId: 'N-8z3', leafCategoryName: 'Respirators', blurb: 'NIOSH approved, adjustable nose clip, cup style.' },
  { sku: '6FA33', name: 'First Aid Kit, 50 Person', price: 64.0, leafCategoryId: 'N-8z5', leafCategoryName: 'First Aid Kits', blurb: 'Metal cabinet, ANSI 2021 Class A+ fill.' },
  { sku: '8LK05', name: 'Lockout Tagout Kit', price: 89.0, leafCategoryId: 'N-8z8', leafCategoryName: 'Lockout Tagout', blurb: '12 padlocks, hasps, tags and a carrying case.' },
];

export const productBySku = (sku: string): Product | undefined => PRODUCTS.find((p) => p.sku.toLowerCase() === sku.toLowerCase());

/** Products shown under "Related products" on a product's page: the next three in the catalog. */
export const relatedTo = (sku: string): Product[] => {
  const i = PRODUCTS.findIndex((p) => p.sku === sku);
  return [1, 2, 3].map((k) => PRODUCTS[(i + k) % PRODUCTS.length]!);
};

export const dataSheetUrl = (sku: string) => `/files/${sku}-data-sheet.pdf`;

export const price = (n: number) => `$${n.toFixed(2)}`;

export interface Article {
  slug: string;
  title: string;
  summary: string;
  body: string[];
}

/** The insights area's articles ("Educational Content"). */
export const ARTICLES: readonly Article[] = [
  {
    slug: 'choosing-safety-glasses',
    title: 'Choosing safety glasses',
    summary: 'Lens tints, coatings and what ANSI Z87.1+ really tests.',
    body: [
      'Start from the hazard: impact, dust, splash or light. Clear lenses suit most indoor work; amber raises contrast in low light; grey cuts glare outdoors.',
      'The "+" in Z87.1+ means the lens passed the high-velocity impact test. Anti-fog coatings matter more than any tint when people move between cold and warm areas.',
    ],
  },
  {
    slug: 'hearing-conservation',
    title: 'A hearing conservation program in five steps',
    summary: 'From noise survey to annual audiograms.',
    body: [
      'Measure first: any area at or above an 85 dBA eight-hour average needs a program. Then remove noise at the source where you can, and protect people where you cannot.',
      'Choose protectors by the real attenuation (derate the NRR), train people to fit them, and keep a baseline and annual audiogram for everyone exposed.',
    ],
  },
  {
    slug: 'lockout-tagout-basics',
    title: 'Lockout/tagout basics',
    summary: 'The six steps of an energy control procedure.',
    body: [
      'Prepare, shut down, isolate, lock and tag, release stored energy, verify. Each authorised person applies a personal lock; the verification step is the one most often skipped.',
      'Write a procedure per machine that names every energy source, including gravity, springs and pressure in lines.',
    ],
  },
];
