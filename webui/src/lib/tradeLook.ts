import { categoryIcon } from './categoryIcon';

/** How a business without photos is pictured: an icon of its trade on a colour of its own. */
export interface TradeLook {
  icon: string;
  /** A hue (0–360); the stylesheet picks the lightness for the light and dark themes. */
  hue: number;
}

/**
 * Every field of work (the tree's first level, admin/refdata/categories.json) by slug. A test
 * checks that each shipped field has its own entry, so a new field is noticed here.
 */
export const FIELD_LOOKS: Record<string, TradeLook> = {
  'building-services': { icon: 'wrench', hue: 200 },
  'appliance-repair': { icon: 'washer', hue: 190 },
  'cleaning-moving': { icon: 'truck', hue: 170 },
  vehicles: { icon: 'car', hue: 220 },
  'health-medical': { icon: 'health', hue: 350 },
  beauty: { icon: 'scissors', hue: 320 },
  legal: { icon: 'scale', hue: 250 },
  'finance-insurance': { icon: 'briefcase', hue: 140 },
  education: { icon: 'book', hue: 35 },
  'it-digital': { icon: 'laptop', hue: 210 },
  construction: { icon: 'building', hue: 25 },
  'real-estate': { icon: 'key', hue: 45 },
  food: { icon: 'food', hue: 15 },
  events: { icon: 'party', hue: 300 },
  tailoring: { icon: 'shirt', hue: 280 },
  sports: { icon: 'sport', hue: 100 },
  transport: { icon: 'truck', hue: 230 },
  'printing-advertising': { icon: 'print', hue: 260 },
  industrial: { icon: 'factory', hue: 30 },
  agriculture: { icon: 'leaf', hue: 110 },
  'child-elderly-care': { icon: 'baby', hue: 330 },
  pets: { icon: 'paw', hue: 40 },
  handicrafts: { icon: 'palette', hue: 290 },
  furniture: { icon: 'sofa', hue: 20 },
  'business-services': { icon: 'briefcase', hue: 240 },
  security: { icon: 'shield', hue: 0 },
  'hospitals-clinics': { icon: 'hospital', hue: 355 },
  'grocery-food-shops': { icon: 'shop', hue: 90 },
  'clothing-shops': { icon: 'shirt', hue: 310 },
  'jewellery-watches': { icon: 'gem', hue: 50 },
  'electronics-shops': { icon: 'laptop', hue: 195 },
  'hardware-shops': { icon: 'wrench', hue: 28 },
  'other-shops': { icon: 'shop', hue: 180 },
  'hotels-accommodation': { icon: 'bed', hue: 265 },
  banks: { icon: 'bank', hue: 150 },
  'government-offices': { icon: 'landmark', hue: 215 },
  'religious-cultural': { icon: 'landmark', hue: 160 },
  entertainment: { icon: 'film', hue: 275 },
  'fuel-parking': { icon: 'fuel', hue: 5 },
  'machinery-hire': { icon: 'tractor', hue: 38 },
  schools: { icon: 'school', hue: 225 },
  media: { icon: 'mic', hue: 335 },
};

/** A steady hue for a name the table does not know, so an unknown field still has its own colour. */
function hueOf(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) % 360;
  return h;
}

interface Named {
  slag?: string;
  english_name?: string;
  parent_ids?: number[];
}

/**
 * The look of a business's trade: its field (range_worker) from the table; a field the table
 * does not know gets an icon guessed from its name and a hue from its slug.
 */
export function tradeLook(field: Named | null | undefined): TradeLook {
  const slug = field?.slag ?? '';
  const known = FIELD_LOOKS[slug];
  if (known) return known;
  return { icon: categoryIcon(field), hue: hueOf(slug || field?.english_name || '') };
}
