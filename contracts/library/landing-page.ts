import { DOCS_PAGES } from '../pages/docs-page.js';
import { escapeHtml, page } from '../pages/html.js';

export interface LandingPlan {
  readonly name: string;
  readonly rpm: number;
  readonly rpd: number;
  readonly maxLimit: number;
  readonly selfService: boolean;
}

const number = (value: number, locale: string) => escapeHtml(value.toLocaleString(locale));

function plansTable(plans: readonly LandingPlan[], locale: 'ar' | 'en'): string {
  const ar = locale === 'ar';
  const head = ar
    ? ['الخطة', 'طلبات في الدقيقة', 'طلبات في اليوم (UTC)', 'أقصى عدد نتائج', 'الحصول عليها']
    : ['Plan', 'Calls per minute', 'Calls per UTC day', 'Max results', 'How to get it'];
  const how = (plan: LandingPlan) =>
    plan.selfService ? (ar ? 'تسجيل ذاتي مجاني' : 'free self-service registration') : ar ? 'يمنحها المشرف' : 'assigned by an admin';
  const locale_ = ar ? 'ar-EG' : 'en-US';
  const rows = plans.map(
    (plan) =>
      `<tr><td><bdi><code>${escapeHtml(plan.name)}</code></bdi></td><td>${number(plan.rpm, locale_)}</td><td>${number(plan.rpd, locale_)}</td><td>${number(plan.maxLimit, locale_)}</td><td>${how(plan)}</td></tr>`,
  );
  return `<table><thead><tr>${head.map((cell) => `<th>${cell}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function quickStart(baseUrl: string): string {
  const base = escapeHtml(baseUrl);
  return `<pre><code>curl -s -X POST ${base}/v1/register -H 'content-type: application/json' \\
  -d '{"email":"you@example.org","org":"my project"}'

curl -s ${base}/v1/me -H 'Authorization: Bearer qk_live_…' -i</code></pre>`;
}

/** Every entry point of the deployment, with its Arabic and English names. */
const ENTRY_POINTS: ReadonlyArray<{ readonly href: string; readonly ar: string; readonly en: string }> = [
  ...DOCS_PAGES.flatMap((docs) => [
    { href: docs.path, ar: `توثيق ${docs.ar}`, en: `${docs.title} API documentation` },
    { href: docs.openapi, ar: `وصف ${docs.ar} الآلي (OpenAPI)`, en: `${docs.title} OpenAPI document` },
  ]),
  { href: '/graphql', ar: 'GraphQL الموحّد للخدمات الثلاث', en: 'GraphQL: the three services federated' },
  { href: '/app/', ar: 'لوحة البحث في المتصفح', en: 'Research console in the browser' },
  { href: '/v1/mcp', ar: 'خادم MCP للمكتبة', en: 'Library MCP endpoint' },
  { href: '/mcp', ar: 'خادم MCP للأبحاث', en: 'Research MCP endpoint' },
  { href: '/metrics', ar: 'مقاييس Prometheus', en: 'Prometheus metrics' },
];

function entryPoints(): string {
  const rows = ENTRY_POINTS.map(
    (entry) =>
      `<tr><td><a href="${escapeHtml(entry.href)}"><code>${escapeHtml(entry.href)}</code></a></td><td lang="en" dir="ltr">${escapeHtml(entry.en)}</td><td lang="ar" dir="rtl">${escapeHtml(entry.ar)}</td></tr>`,
  );
  return `<nav aria-label="Entry points"><table id="entry-points"><thead><tr><th>Path</th><th lang="en" dir="ltr">What</th><th lang="ar" dir="rtl">ما هو</th></tr></thead><tbody>${rows.join('')}</tbody></table></nav>`;
}

/** The landing page: Arabic first (right to left), then English, with the plans of `/plans`. */
export function renderLandingPage(plans: readonly LandingPlan[], baseUrl: string): string {
  const body = `<div class="pair">
<section lang="ar" dir="rtl" id="ar">
<h1>قنطرة: واجهة برمجية لمكتبة عربية رقمية</h1>
<p>استرجاع مقاطع من داخل صفحات الكتب حول كلمات السؤال، مع رقم الصفحة والكتاب والجزء للإحالة، لبناء أنظمة التوليد المعزّز بالاسترجاع. وبحث في الصفحات، وقراءة النصوص الكاملة، وفهرس الكتب والأقسام والمؤلفين، ومحادثة تُبنى أجوبتها من نصوص المكتبة وحدها.</p>
<h2>ابدأ في دقيقة</h2>
<ol>
<li>سجّل مفتاحًا مجانيًا بطلب <bdi><code>POST /v1/register</code></bdi>؛ يظهر المفتاح مرة واحدة فاحفظه.</li>
<li>أرسله في كل طلب: <bdi><code>Authorization: Bearer qk_live_…</code></bdi></li>
<li>تابع حدودك في الترويسات <bdi><code>X-RateLimit-*</code></bdi> و<bdi><code>X-Quota-*</code></bdi>، وسجلّ استهلاكك في <bdi><code>/v1/usage</code></bdi>.</li>
</ol>
<h2>الخطط</h2>
${plansTable(plans, 'ar')}
<p>التوثيق الكامل في <a href="/docs">صفحة التوثيق</a>، والوصف الآلي في <a href="/openapi.json"><bdi>OpenAPI</bdi></a>.</p>
</section>
<section lang="en" dir="ltr" id="en">
<h1>Qantara: the API of an Arabic digital library</h1>
<p>Passage retrieval from inside book pages around the words of a question, with book, part and page for citation — the building block for retrieval-augmented generation. Also page search, full-text reading, the catalog of books, categories and authors, and chat answered from library texts only.</p>
<h2>Start in a minute</h2>
<ol>
<li>Register a free key with <code>POST /v1/register</code>; it is shown once, so keep it.</li>
<li>Send it on every call: <code>Authorization: Bearer qk_live_…</code></li>
<li>Watch your limits in the <code>X-RateLimit-*</code> and <code>X-Quota-*</code> headers and your history at <code>/v1/usage</code>.</li>
</ol>
<h2>Plans</h2>
${plansTable(plans, 'en')}
<p>Full reference on the <a href="/docs">documentation page</a>; machine-readable at <a href="/openapi.json">/openapi.json</a>.</p>
</section>
</div>
<h2>Entry points · <span lang="ar" dir="rtl">نقاط الدخول</span></h2>
${entryPoints()}
<h2>Quick start · <span lang="ar" dir="rtl">بداية سريعة</span></h2>
${quickStart(baseUrl)}`;
  return page({ lang: 'ar', dir: 'rtl', title: 'قنطرة · Qantara library API', body });
}
