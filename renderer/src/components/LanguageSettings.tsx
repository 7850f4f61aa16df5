import { setLanguagePreference, systemLanguage, useLanguagePreference, useTranslation, type LanguagePreference } from '../i18n';

/**
 * Settings → Language: System (follow the OS/browser locale) / English / 简体中文. The pick is
 * kept in this window's storage and applies at once (../i18n/index.ts).
 */
export function LanguageSettings() {
  const { t } = useTranslation();
  const pref = useLanguagePreference();
  const sys = systemLanguage() === 'zh-CN' ? t('language.zh') : t('language.en');
  return (
    <div className="panel" data-testid="language-settings">
      <h2>{t('language.title')}</h2>
      <label className="field narrow">
        <span>{t('language.label')}</span>
        <select aria-label={t('language.label')} value={pref} onChange={(e) => setLanguagePreference(e.target.value as LanguagePreference)}>
          <option value="system">{t('language.system', { language: sys })}</option>
          <option value="en">{t('language.en')}</option>
          <option value="zh-CN">{t('language.zh')}</option>
        </select>
        <span className="hint">{t('language.hint')}</span>
      </label>
    </div>
  );
}
