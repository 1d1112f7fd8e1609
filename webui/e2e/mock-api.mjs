// A small stand-in for the Kardan API with sample data, for screenshots and front-end work
// while the Go server is not running. Usage: node e2e/mock-api.mjs [port]
import http from 'node:http';
import { encodePng } from '../scripts/png.mjs';

// A plain map-like tile: land colour with a faint street grid.
const tile = encodePng(256, 256, (x, y) => (x % 64 < 2 || y % 64 < 2 ? [255, 255, 255, 255] : (x + y) % 256 < 3 ? [250, 236, 200, 255] : [236, 233, 226, 255]));

const provinces = [
  { id: 1, farsi_name: 'تهران', english_name: 'Tehran' },
  { id: 2, farsi_name: 'اصفهان', english_name: 'Isfahan' },
  { id: 3, farsi_name: 'فارس', english_name: 'Fars' },
  { id: 4, farsi_name: 'خراسان رضوی', english_name: 'Razavi Khorasan' },
  { id: 5, farsi_name: 'آذربایجان شرقی', english_name: 'East Azerbaijan' },
];
const cities = [
  { id: 1, farsi_name: 'تهران', english_name: 'Tehran', slag: 'tehran', province_id: 1, lat: 35.6892, long: 51.389 },
  { id: 2, farsi_name: 'شمیرانات', english_name: 'Shemiranat', slag: 'shemiranat', province_id: 1, lat: 35.8, long: 51.5 },
  { id: 3, farsi_name: 'اصفهان', english_name: 'Isfahan', slag: 'isfahan', province_id: 2, lat: 32.6539, long: 51.666 },
  { id: 4, farsi_name: 'کاشان', english_name: 'Kashan', slag: 'kashan', province_id: 2, lat: 33.985, long: 51.41 },
  { id: 5, farsi_name: 'شیراز', english_name: 'Shiraz', slag: 'shiraz', province_id: 3, lat: 29.5918, long: 52.5837 },
  { id: 6, farsi_name: 'مشهد', english_name: 'Mashhad', slag: 'mashhad', province_id: 4, lat: 36.2605, long: 59.6168 },
  { id: 7, farsi_name: 'تبریز', english_name: 'Tabriz', slag: 'tabriz', province_id: 5, lat: 38.08, long: 46.2919 },
];
const field = (id, fa, en, slag, children) => ({ id, farsi_name: fa, english_name: en, slag, favourite: true, parent_id: null, children });
const cat = (id, parent, fa, en, slag, favourite = false) => ({ id, farsi_name: fa, english_name: en, slag, favourite, parent_id: parent, children: [] });
const tree = [
  field(1, 'تاسیسات ساختمان', 'Building services', 'building-services', [
    cat(11, 1, 'لوله‌کش', 'Plumber', 'plumber', true),
    cat(12, 1, 'برق‌کار', 'Electrician', 'electrician', true),
    cat(13, 1, 'تعمیر پکیج', 'Boiler repair', 'boiler-repair'),
  ]),
  field(2, 'حقوقی', 'Legal', 'legal', [cat(21, 2, 'وکیل خانواده', 'Family lawyer', 'family-lawyer', true), cat(22, 2, 'دفتر اسناد رسمی', 'Notary', 'notary')]),
  field(3, 'سلامت', 'Health', 'health', [cat(31, 3, 'دندان‌پزشک', 'Dentist', 'dentist', true), cat(32, 3, 'فیزیوتراپی', 'Physiotherapy', 'physiotherapy')]),
  field(4, 'زیبایی', 'Beauty', 'beauty', [cat(41, 4, 'آرایشگاه زنانه', "Women's salon", 'womens-salon', true), cat(42, 4, 'آرایشگاه مردانه', 'Barber', 'barber')]),
  field(5, 'خودرو', 'Cars', 'cars', [cat(51, 5, 'مکانیک', 'Car mechanic', 'car-mechanic', true), cat(52, 5, 'صافکاری و نقاشی', 'Body and paint', 'body-paint')]),
  field(6, 'آموزش', 'Education', 'education', [cat(61, 6, 'معلم خصوصی ریاضی', 'Maths tutor', 'maths-tutor', true), cat(62, 6, 'آموزش زبان انگلیسی', 'English teacher', 'english-teacher')]),
  field(7, 'دیجیتال و کامپیوتر', 'Computers', 'computers', [cat(71, 7, 'تعمیر لپ‌تاپ', 'Laptop repair', 'laptop-repair', true)]),
];
const flat = tree.flatMap((f) => [f, ...f.children]);
const favourites = flat.filter((c) => c.favourite && c.parent_id);

const colours = ['#0b6e69', '#7a3e9d', '#b5462f', '#1f5fa8', '#8a6d00', '#2f7d32', '#a3356b', '#45606e'];
function avatar(name, i) {
  const c = colours[i % colours.length];
  const ch = [...name][0];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400"><rect width="400" height="400" fill="${c}"/><circle cx="330" cy="70" r="120" fill="#ffffff" opacity="0.08"/><circle cx="40" cy="380" r="150" fill="#000000" opacity="0.08"/><text x="200" y="250" font-size="170" text-anchor="middle" fill="#ffffff" font-family="Vazirmatn, Tahoma, sans-serif" font-weight="700">${ch}</text></svg>`;
}
function scene(i) {
  const c = colours[(i + 3) % colours.length];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600"><rect width="800" height="600" fill="${c}"/><rect x="80" y="320" width="640" height="200" rx="20" fill="#ffffff" opacity="0.16"/><circle cx="600" cy="170" r="90" fill="#ffffff" opacity="0.22"/><path d="M0 600 L260 300 L460 600 Z" fill="#000000" opacity="0.12"/></svg>`;
}

const week = (o, c) => ({
  saturday: { boarding: false, closed: false, time: [{ open: o, close: c }] },
  sunday: { boarding: false, closed: false, time: [{ open: o, close: c }] },
  monday: { boarding: false, closed: false, time: [{ open: o, close: 46800 }, { open: 57600, close: c }] },
  tuesday: { boarding: false, closed: false, time: [{ open: o, close: c }] },
  wednesday: { boarding: false, closed: false, time: [{ open: o, close: c }] },
  thursday: { boarding: false, closed: false, time: [{ open: o, close: 50400 }] },
  friday: { boarding: false, closed: true, time: [] },
});
const allDay = Object.fromEntries(['saturday', 'sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [d, { boarding: true, closed: false, time: [] }]));

const seeds = [
  ['تاسیسات امید', 'omid-plumbing', 1, 11, 1, 4.8, 126, 'لوله‌کشی، رفع نشتی بدون تخریب، نصب شیرآلات و تعمیر آبگرمکن در تمام مناطق تهران. بیش از پانزده سال تجربه با ضمانت کتبی کار.'],
  ['برق صنعتی پارس', 'pars-electric', 1, 12, 1, 4.6, 88, 'سیم‌کشی ساختمان، تابلو برق، نصب روشنایی و عیب‌یابی اتصالی با تجهیزات تست حرفه‌ای.'],
  ['دفتر وکالت سارا محمدی', 'sara-mohammadi-law', 2, 21, 1, 4.9, 54, 'مشاوره و وکالت در دعاوی خانواده، مهریه، طلاق توافقی و حضانت. وقت مشاوره حضوری و تلفنی.'],
  ['کلینیک دندان‌پزشکی لبخند', 'labkhand-dental', 3, 31, 3, 4.7, 203, 'ایمپلنت، ارتودنسی، لمینت و درمان ریشه با تجهیزات دیجیتال. پذیرش بیمه‌های تکمیلی.'],
  ['سالن زیبایی ماه‌بانو', 'mahbanoo-salon', 4, 41, 5, 4.5, 97, 'کوتاهی و رنگ مو، کراتین، میکاپ عروس و خدمات ناخن با رزرو آنلاین.'],
  ['تعمیرگاه خودرو آریا', 'arya-auto', 5, 51, 6, 4.3, 61, 'تعمیرات موتور و گیربکس، سرویس دوره‌ای و عیب‌یابی با دستگاه دیاگ برای خودروهای داخلی و خارجی.'],
  ['آموزش ریاضی استاد رضایی', 'rezaei-maths', 6, 61, 7, 5, 38, 'تدریس خصوصی ریاضی دبیرستان و کنکور، حضوری در تبریز و آنلاین در سراسر ایران.'],
  ['لپ‌تاپ‌سرویس', 'laptop-service', 7, 71, 1, 4.4, 75, 'تعمیر تخصصی لپ‌تاپ و مک‌بوک، تعویض صفحه، تعمیر برد و بازیابی اطلاعات.'],
  ['پکیج‌سرویس نوین', 'novin-boiler', 1, 13, 3, 4.2, 29, 'تعمیر و سرویس انواع پکیج دیواری و آبگرمکن در اصفهان، اعزام فوری.'],
  ['فیزیوتراپی حرکت', 'harekat-physio', 3, 32, 1, 4.8, 44, 'درمان دردهای ستون فقرات، آسیب‌های ورزشی و توان‌بخشی پس از جراحی.'],
  ['آرایشگاه مردانه مدرن', 'modern-barber', 4, 42, 1, 4.1, 120, 'اصلاح مو و صورت، گریم داماد و خدمات پوست آقایان.'],
  ['زبان‌کده آوا', 'ava-english', 6, 62, 5, 4.6, 66, 'کلاس‌های زبان انگلیسی برای کودکان و بزرگسالان، آمادگی آیلتس.'],
];

const profiles = seeds.map(([name, slug, fieldId, catId, cityId, score, count, desc], i) => {
  const f = tree.find((x) => x.id === fieldId);
  const c = flat.find((x) => x.id === catId);
  const city = cities.find((x) => x.id === cityId);
  const prov = provinces.find((p) => p.id === city.province_id);
  const jitter = ((i * 37) % 11) / 300 - 0.015;
  return {
    id: i + 1,
    delete_at: null,
    active: true,
    option: [],
    register_admin: null,
    user_id: { userId: i < 2 ? 1 : i + 1, name: i < 2 ? 'امید کریمی' : name, profileImage: '' },
    range_worker: { id: f.id, farsi_name: f.farsi_name, english_name: f.english_name, slag: f.slag, parent_ids: [] },
    category_list: [{ id: c.id, farsi_name: c.farsi_name, english_name: c.english_name, slag: c.slag }],
    profile_image: `/uploads/mock/p${i + 1}.svg`,
    logo: i % 3 === 0 ? `/uploads/mock/l${i + 1}.svg` : '',
    profile_name: name,
    key_word: name,
    work_history_years: 3 + ((i * 5) % 17),
    descriotion: desc,
    level_score: score - 0.2,
    count_scorer: count,
    score,
    location: [city.long + jitter, city.lat - jitter],
    area_working: i % 2 ? ['منطقه ۱', 'منطقه ۲', 'منطقه ۵'] : ['سعادت‌آباد', 'شهرک غرب', 'پونک'],
    address: `${city.farsi_name}، خیابان ولیعصر، پلاک ${12 + i}`,
    account_status: 'Accepted',
    portfolio_images: [1, 2, 3, 4].map((k) => `/uploads/mock/s${(i + k) % 8}.svg`),
    create_at: new Date(Date.UTC(2024, i % 12, 3 + i)).toISOString(),
    update_at: new Date(Date.UTC(2025, 1, 2)).toISOString(),
    social_network: [
      { type: 'Mobile', link: `0912${String(1000000 + i * 12345).slice(0, 7)}` },
      { type: 'Phone', link: `021${String(88000000 + i * 1111)}` },
      { type: 'Telegram', link: slug.replace(/-/g, '_') },
      { type: 'Whatsap', link: `98912${String(1000000 + i * 12345).slice(0, 7)}` },
      { type: 'Instagram', link: slug.replace(/-/g, '.') },
      { type: 'Eitaa', link: slug.replace(/-/g, '_') },
      { type: 'Site', link: `https://${slug}.example.ir` },
    ],
    services: [
      { title: 'بازدید و برآورد هزینه', price: 0, description: 'بازدید رایگان در محدودهٔ شهر' },
      { title: 'خدمت پایه', price: 350000 + i * 50000, description: 'شامل اجرت و ضمانت سه‌ماهه' },
      { title: 'خدمت ویژه', price: 1200000 + i * 150000, description: '' },
    ],
    hours_of_work: i === 3 ? allDay : week(28800, 72000),
    slug,
    province: prov,
    city: { id: city.id, farsi_name: city.farsi_name, english_name: city.english_name, slag: city.slag },
  };
});

const comments = [
  ['مریم احمدی', 5, 'کارشان خیلی تمیز و سریع بود، سر وقت آمدند و قیمت منصفانه بود. پیشنهاد می‌کنم.', 'ممنون از لطف شما، خوشحالیم که راضی بودید.'],
  ['علی رضوی', 4, 'کیفیت کار خوب بود ولی کمی دیرتر از زمان هماهنگ‌شده رسیدند.', null],
  ['نگار حسینی', 5, 'برخورد بسیار محترمانه و توضیح کامل دربارهٔ مشکل. حتما دوباره مراجعه می‌کنم.', null],
  ['Reza K.', 5, 'Great job, explained everything clearly and cleaned up afterwards.', null],
];

const blogs = [
  ['۵ نشانهٔ نشتی پنهان لوله که نباید نادیده بگیرید', 'hidden-leak-signs', 'قبض آب بالا، لکهٔ رطوبت و صدای جریان آب در سکوت شب؛ نشانه‌هایی که می‌گویند وقت تماس با لوله‌کش است.'],
  ['پیش از امضای قرارداد با پیمانکار، این موارد را بپرسید', 'before-contractor-contract', 'چک‌لیست کوتاهی برای اینکه مبلغ، زمان‌بندی و ضمانت کار از اول روشن باشد.'],
  ['مراقبت از دندان‌ها پس از ایمپلنت', 'implant-aftercare', 'توصیه‌های ساده‌ای که عمر ایمپلنت را بیشتر و دوران بهبود را راحت‌تر می‌کند.'],
  ['چطور مکانیک مطمئن پیدا کنیم؟', 'find-trusted-mechanic', 'از خواندن نظر مشتریان تا پرسیدن دربارهٔ قطعات؛ راه‌هایی برای اینکه خودرو را با خیال راحت بسپارید.'],
];
const blogList = blogs.map(([title, slug, summary], i) => ({
  id: i + 1,
  writer_id: { id: 1, name: 'تحریریهٔ کاردان' },
  category_list: [],
  title,
  slug,
  summary,
  content: `<p>${summary}</p><h2>نکتهٔ اول</h2><p>همیشه پیش از شروع کار، هزینه و زمان را به‌صورت مکتوب مشخص کنید و از متخصص بخواهید نمونه‌کارهای قبلی‌اش را نشان دهد.</p><h2>نکتهٔ دوم</h2><ul><li>نظر مشتریان قبلی را بخوانید.</li><li>دربارهٔ ضمانت بپرسید.</li><li>رسید پرداخت بگیرید.</li></ul><p>با این چند قدم ساده، تجربهٔ بهتری خواهید داشت.</p>`,
  image_url: `/uploads/mock/s${i + 2}.svg`,
  tag: ['راهنما', 'نکته'],
  status: 'Published',
  release_at: new Date(Date.UTC(2025, 0, 10 + i * 9)).toISOString(),
  create_at: new Date(Date.UTC(2025, 0, 8 + i * 9)).toISOString(),
}));

// The Desk: the signed-in owner's profiles in several states, blogs, and the moderation lists.
const DAY = 86400000;
const STATUS_OF = { 1: 'Accepted', 2: 'Rejected', 9: 'Pending', 10: 'Pending', 11: 'Pending', 12: 'Blocked' };
const NOTE_OF = {
  2: 'عکس پروفایل تصویر یک محصول از اینترنت است؛ لطفاً عکس خود یا مغازه را بگذارید و شمارهٔ تماس را کامل کنید.',
  12: 'چند گزارش دربارهٔ دریافت بیعانه بدون انجام کار رسیده است.',
};
function deskProfile(p) {
  const status = STATUS_OF[p.id] ?? 'Accepted';
  return {
    ...p,
    account_status: status,
    active: p.id !== 2,
    display: true,
    register_admin: NOTE_OF[p.id] ? { adminRegisterId: 1, description: NOTE_OF[p.id] } : { adminRegisterId: null, description: '' },
    user_id: { ...p.user_id, numberPhone: `0912${String(3000000 + p.id * 7919).slice(0, 7)}` },
  };
}
const deletedProfile = { ...deskProfile(profiles[2]), account_status: 'Deleted', active: false, delete_at: new Date(Date.now() - 9 * DAY).toISOString() };
const ownProfiles = [deskProfile(profiles[0]), deskProfile(profiles[1])];
const allDesk = [...profiles.map(deskProfile).map((x) => (x.id === 3 ? deletedProfile : x))];

const deskBlogs = [
  { ...blogList[0], status: 'Published', isDraft: false },
  { ...blogList[1], id: 11, slug: 'winter-boiler-care', title: 'راهنمای نگهداری پکیج در زمستان', summary: 'چند کار ساده که پیش از سرما باید انجام داد تا پکیج خاموش نشود.', status: 'Pending', isDraft: false, release_at: new Date(Date.now() + 3 * DAY).toISOString(), image_url: '/uploads/mock/s5.svg' },
  { ...blogList[2], id: 12, slug: 'water-pressure', title: 'چرا فشار آب ساختمان کم است؟', summary: '', status: 'Draft', isDraft: true, image_url: '' },
  { ...blogList[3], id: 13, slug: 'cheap-fixes', title: 'تعمیرات ارزان که گران تمام می‌شوند', status: 'Rejected', isDraft: false, register_admin: { description: 'نام و نشانی یک فروشگاه در متن تبلیغ شده است؛ لطفاً آن را بردارید.' } },
].map((b) => ({
  ...b,
  category_list: [{ id: 11, farsi_name: 'لوله‌کش', english_name: 'Plumber', slag: 'plumber' }],
  content:
    '<p>سرمای زمستان بیشترین فشار را به پکیج و لوله‌ها می‌آورد. با چند بازدید ساده می‌توانید از خاموشی‌های ناگهانی و هزینه‌های سنگین جلوگیری کنید.</p><h2>پیش از شروع سرما</h2><ul><li>فشار آب پکیج را بررسی کنید؛ عقربه باید بین ۱ و ۱٫۵ بار باشد.</li><li>دودکش را از نظر گرفتگی و نشتی ببینید.</li><li>شیرهای رادیاتورها را یکی‌یکی باز و هواگیری کنید.</li></ul><h3>یک نکتهٔ مهم</h3><p><strong>سرویس سالانه</strong> را به تعمیرکار مجاز بسپارید و <em>رسید</em> بگیرید.</p>',
}));

const critics = [
  { id: 1, name: 'سمیرا نادری', email: 'samira@example.ir', number_phone: '', subject: 'شمارهٔ اشتباه در یک صفحه', message: 'شمارهٔ تلفن صفحهٔ «تعمیرگاه خودرو آریا» به شخص دیگری تعلق دارد. لطفاً بررسی کنید.', read: false, create_at: new Date(Date.now() - 2 * 3600000).toISOString() },
  { id: 2, name: 'Amir', email: '', number_phone: '09121112233', subject: 'پیشنهاد', message: 'خوب است امکان رزرو وقت هم اضافه شود.', read: false, create_at: new Date(Date.now() - DAY).toISOString() },
  { id: 3, name: 'رضا', email: 'reza@example.com', number_phone: '', subject: 'تشکر', message: 'با کاردان یک لوله‌کش خوب نزدیک خانه پیدا کردم. ممنون.', read: true, create_at: new Date(Date.now() - 4 * DAY).toISOString() },
];

function page(list, url) {
  const skip = Number(url.searchParams.get('skip') || 0);
  const take = Number(url.searchParams.get('take') || 20);
  return list.slice(skip, skip + take);
}

function send(res, status, payload, message = null) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ payload, message }));
}

function body(req) {
  return new Promise((resolve) => {
    let s = '';
    req.on('data', (c) => (s += c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(s || '{}'));
      } catch {
        resolve({});
      }
    });
  });
}

function dist(a, b) {
  const R = 6371000;
  const toR = (x) => (x * Math.PI) / 180;
  const dLat = toR(b[1] - a[1]);
  const dLon = toR(b[0] - a[0]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toR(a[1])) * Math.cos(toR(b[1])) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  const p = url.pathname;
  const en = (req.headers['accept-language'] || '').startsWith('en');
  if (p.startsWith('/uploads/mock/')) {
    const m = p.match(/\/([psl])(\d+)\.svg$/);
    const i = Number(m?.[2] ?? 0);
    const svg = m?.[1] === 's' ? scene(i) : avatar(profiles[(i - 1) % profiles.length]?.profile_name ?? 'ک', i + (m?.[1] === 'l' ? 4 : 0));
    res.writeHead(200, { 'Content-Type': 'image/svg+xml' });
    return res.end(svg);
  }
  if (p.startsWith('/tiles/')) {
    res.writeHead(200, { 'Content-Type': 'image/png', 'Access-Control-Allow-Origin': '*' });
    return res.end(tile);
  }
  if (p === '/healthz') return send(res, 200, 'ok');
  if (p === '/v1/config') return send(res, 200, { tiles: process.env.MOCK_TILES || 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', base_url: '', moderation: 'pre' });
  if (p === '/v1/locations/province/list') return send(res, 200, provinces);
  if (p.startsWith('/v1/locations/cities/list/')) return send(res, 200, cities.filter((c) => c.province_id === Number(p.split('/').pop())));
  if (p === '/v1/locations/nearest') {
    const pt = [Number(url.searchParams.get('long')), Number(url.searchParams.get('lat'))];
    return send(res, 200, [...cities].sort((a, b) => dist(pt, [a.long, a.lat]) - dist(pt, [b.long, b.lat]))[0]);
  }
  if (p === '/v1/work_category/getTreeById') return send(res, 200, tree);
  if (p === '/v1/work_category/getFavourite') return send(res, 200, favourites);
  if (p === '/v1/user-technical/searchUser') {
    const b = await body(req);
    let list = profiles.filter((x) => {
      if (b.city_slag && x.city.slag !== b.city_slag) return false;
      if (b.province_id && x.province.id !== b.province_id) return false;
      if (b.category_slag && x.range_worker.slag !== b.category_slag && !x.category_list.some((c) => c.slug === b.category_slag || c.slag === b.category_slag)) return false;
      if (b.min_score && x.score < b.min_score) return false;
      if (b.search_txt && !(x.profile_name + x.descriotion + x.category_list.map((c) => c.farsi_name + c.english_name).join()).toLowerCase().includes(String(b.search_txt).toLowerCase())) return false;
      return true;
    });
    if (b.lat && b.long) {
      list = list.map((x) => ({ ...x, distance: dist([b.long, b.lat], x.location) })).filter((x) => !b.radius || x.distance <= b.radius);
      if (b.order === 'nearest') list.sort((a, c) => a.distance - c.distance);
    }
    if (b.order === 'best') list.sort((a, c) => c.level_score - a.level_score);
    if (b.order === 'reviews') list.sort((a, c) => c.count_scorer - a.count_scorer);
    return send(res, 200, { profiles: list.slice(b.skip || 0, (b.skip || 0) + (b.take || 20)), count: list.length });
  }
  if (p === '/v1/user-technical/searchUserSlag') {
    const b = await body(req);
    const x = profiles.find((y) => y.slug === b.slug);
    return x ? send(res, 200, x) : send(res, 404, null, en ? 'Item not found' : 'موردی یافت نشد');
  }
  // The Desk (signed in).
  const authed = !!req.headers.authorization;
  if (p.startsWith('/v1/user-technical/getAll/') && authed && Number(p.split('/').pop()) === 1) {
    return send(res, 200, { profiles: ownProfiles, count: ownProfiles.length });
  }
  if (p.startsWith('/v1/user-technical/getAuthProfileById/')) {
    const id = Number(p.split('/').pop());
    const x = id === 3 ? deletedProfile : allDesk.find((y) => y.id === id);
    return x ? send(res, 200, x) : send(res, 404, null, en ? 'Item not found' : 'موردی یافت نشد');
  }
  if (p === '/v1/user-technical/createProfile' || p.startsWith('/v1/user-technical/update/') || /\/v1\/user-technical\/\d+\/flags$/.test(p)) {
    const b = await body(req);
    const id = Number(p.match(/(\d+)/)?.[1] ?? 99);
    return send(res, 200, { ...(allDesk.find((y) => y.id === id) ?? ownProfiles[0]), ...b, id });
  }
  if (p === '/v1/upload-file') {
    req.resume();
    return req.on('end', () => send(res, 200, { address: '/uploads/mock/s4.svg', data: { location: 'mock/s4.svg' } }));
  }
  if (p === '/v1/blog/getAuthAll') return send(res, 200, { blogs: deskBlogs, count: deskBlogs.length });
  if (p.startsWith('/v1/blog/getAuth/')) {
    const x = deskBlogs.find((b) => String(b.id) === p.split('/').pop());
    return x ? send(res, 200, x) : send(res, 404, null, en ? 'Item not found' : 'موردی یافت نشد');
  }
  if (p === '/v1/blog/add' || p === '/v1/blog/edit') return send(res, 200, { ...deskBlogs[1], ...(await body(req)) });
  if (p === '/v1/admin/user-technical') {
    const st = url.searchParams.get('status') || '';
    const list = st === 'Deleted' ? [deletedProfile] : allDesk.filter((x) => !x.delete_at && (!st || x.account_status === st));
    return send(res, 200, { profiles: page(list, url), count: list.length });
  }
  if (p === '/v1/user-technical/getAllWithSoftDeleted') return send(res, 200, { profiles: page(allDesk, url), count: allDesk.length });
  if (/^\/v1\/admin\/(user-technical|blog|comment)\/\d+\/status$/.test(p) || /^\/v1\/admin\/critics\/\d+\/read$/.test(p)) return send(res, 200, await body(req));
  if (p === '/v1/admin/blog') {
    const st = url.searchParams.get('status') || '';
    const list = deskBlogs.filter((b) => !st || b.status === st).map((b) => ({ ...b, writer: { id: 1, name: 'امید کریمی' } }));
    return send(res, 200, { blogs: page(list, url), count: list.length });
  }
  if (p === '/v1/admin/comment') {
    const hidden = url.searchParams.get('status') === 'Hidden';
    const list = comments
      .map(([name, score, description], i) => ({ id: i + 1, description, score, status: i === 1 ? 'Hidden' : 'Visible', create_at: new Date(Date.UTC(2025, 2, 1 + i * 6)).toISOString(), user: { id: 100 + i, name }, user_technical_id: profiles[i].id, user_technical: { id: profiles[i].id, profile_name: profiles[i].profile_name, slug: profiles[i].slug } }))
      .filter((c) => (c.status === 'Hidden') === hidden);
    return send(res, 200, { comments: page(list, url), count: list.length });
  }
  if (p === '/v1/critics-and-suggestions' && req.method === 'GET') {
    const read = url.searchParams.get('read');
    const list = critics.filter((c) => read === null || String(c.read) === read);
    return send(res, 200, { critics: page(list, url), count: list.length });
  }
  if (p.startsWith('/v1/user-technical/getAll/')) {
    const uid = Number(p.split('/').pop());
    return send(res, 200, profiles.filter((x) => x.user_id.userId === uid));
  }
  if (p === '/v1/comment/get') {
    const b = await body(req);
    const list = comments.map(([name, score, description, reply], i) => ({
      id: i + 1,
      description,
      score,
      create_at: new Date(Date.UTC(2025, 2, 1 + i * 6)).toISOString(),
      user: { id: 100 + i, name, profileImage: '' },
      reply: reply ? { description: reply, create_at: new Date(Date.UTC(2025, 2, 3 + i * 6)).toISOString() } : null,
    }));
    return send(res, 200, { comments: list.slice(b.skip || 0, (b.skip || 0) + (b.take || 20)), count: list.length });
  }
  if (p === '/v1/comment/add' || p === '/v1/comment/edit') {
    if (!req.headers.authorization) return send(res, 401, null, en ? 'Please log in first to post a comment' : 'لطفا ابتدا وارد شوید');
    return send(res, 409, null, en ? 'You have already posted a comment' : 'شما قبلا نظر ثبت کرده‌اید');
  }
  if (p === '/v1/blog/search') {
    const b = await body(req);
    return send(res, 200, { blogs: blogList.slice(b.skip || 0, (b.skip || 0) + (b.take || 20)), count: blogList.length });
  }
  if (p.startsWith('/v1/blog/get/')) {
    const s = decodeURIComponent(p.split('/').pop());
    const x = blogList.find((y) => y.slug === s || String(y.id) === s);
    return x ? send(res, 200, x) : send(res, 404, null, en ? 'Item not found' : 'موردی یافت نشد');
  }
  if (p === '/v1/user/login') {
    const b = await body(req);
    if (b.password !== 'password123') return send(res, 400, null, en ? 'Enter correct mobile number or password' : 'شماره موبایل یا رمز عبور درست نیست');
    return send(res, 200, { token: 'mock-token-0123456789abcdef', id: 1, userTechnical: profiles.slice(0, 2), isAdmin: false });
  }
  if (p === '/v1/user') {
    if (!req.headers.authorization) return send(res, 401, null, 'Unauthorized');
    return send(res, 200, { id: 1, name: 'امید کریمی', numberPhone: '09121234567', profileImage: '/uploads/mock/p1.svg', isAdmin: true });
  }
  if (p === '/v1/user/logout') return send(res, 200, null);
  if (p === '/v1/send-sms/sendSmsForSignUp') return send(res, 200, null, en ? 'Code sent' : 'کد ارسال شد');
  if (p === '/v1/user/create') return send(res, 200, { id: 2 });
  if (p.startsWith('/v1/critics-and-suggestions/')) return send(res, 200, null);
  if (p === '/v1/user/edit') return send(res, 200, { id: 1, name: 'امید کریمی', numberPhone: '09121234567', profileImage: '/uploads/mock/p1.svg', isAdmin: true, ...(await body(req)) });
  // Other changes made from the Desk (delete, restore, blog delete) simply succeed.
  if (req.method === 'PUT' || req.method === 'DELETE') return send(res, 200, null);
  return send(res, 404, null, en ? 'Item not found' : 'موردی یافت نشد');
});

const port = Number(process.argv[2] || process.env.PORT || 8090);
server.listen(port, '127.0.0.1', () => console.log(`mock api on http://127.0.0.1:${port}`));
