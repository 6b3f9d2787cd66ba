import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { WireRequest } from '../../operation.js';

/**
 * Agent skills published on the site (Agent Skills Discovery 0.2.0): one `SKILL.md` per
 * skill, served at `/.well-known/agent-skills/<name>/SKILL.md` with `{api_url}` and
 * `{site_url}` filled in, and an index listing each with the SHA-256 digest of exactly the
 * bytes that address serves. Both are rendered by the same function, so they agree.
 */

export const SKILLS_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
export const SKILLS_PATH = '/.well-known/agent-skills';
export const SKILL_TYPE = 'text/markdown; charset=utf-8';

export const SKILL_NAMES = ['qantara-research', 'qantara-library'] as const;
export type SkillName = (typeof SKILL_NAMES)[number];

interface SkillSource {
  readonly name: SkillName;
  readonly description: string;
  readonly template: string;
}

/** `name` and `description` of the YAML front matter (one line each). */
function frontMatter(text: string, file: string): { name: string; description: string } {
  const block = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1];
  const field = (key: string) => new RegExp(`^${key}: (.+)$`, 'm').exec(block ?? '')?.[1]?.trim();
  const name = field('name');
  const description = field('description');
  if (!name || !description) throw new Error(`${file}: front matter needs name and description`);
  return { name, description };
}

const SOURCES: ReadonlyMap<SkillName, SkillSource> = new Map(
  SKILL_NAMES.map((name) => {
    const file = new URL(`./skills/${name}/SKILL.md`, import.meta.url);
    const template = readFileSync(file, 'utf8');
    const meta = frontMatter(template, file.pathname);
    if (meta.name !== name) throw new Error(`${file.pathname}: front matter names ${meta.name}`);
    return [name, { name, description: meta.description, template }];
  }),
);

export const isSkillName = (name: string): name is SkillName => SOURCES.has(name as SkillName);

/** The bytes a skill's address serves for this request. */
export function renderSkill(name: SkillName, request: Pick<WireRequest, 'apiUrl' | 'siteUrl'>): Buffer {
  const text = SOURCES.get(name)!.template.replaceAll('{api_url}', request.apiUrl).replaceAll('{site_url}', request.siteUrl);
  return Buffer.from(text, 'utf8');
}

export const skillUrl = (name: SkillName, siteUrl: string) => `${siteUrl}${SKILLS_PATH}/${name}/SKILL.md`;

export function skillsIndex(request: Pick<WireRequest, 'apiUrl' | 'siteUrl'>) {
  return {
    $schema: SKILLS_SCHEMA,
    skills: SKILL_NAMES.map((name) => ({
      name,
      type: 'skill-md',
      description: SOURCES.get(name)!.description,
      url: skillUrl(name, request.siteUrl),
      digest: `sha256:${createHash('sha256').update(renderSkill(name, request)).digest('hex')}`,
    })),
  };
}
