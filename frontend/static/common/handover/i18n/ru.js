// The hand-over strings in Russian (common/handover/handover.js): a data file (strict JSON after
// `export default`), loaded with that module. Every key is in en, uk and ru.
export default {
 "handover.new_phone": "Место «{seat}» перешло на новый телефон: одобрено на телевизоре",
 "handover.spectator": "Место «{seat}» перешло к {name} (из зрителей): одобрено на телевизоре",
 "handover.old_phone": "Место «{seat}» вернулось на прежний телефон: одобрено на телевизоре",
 "handed.title": "Ваше место передали другому телефону",
 "handed.hint": "Это одобрили на телевизоре: за место «{seat}» теперь играют с другого телефона. Если это были не вы, попросите его обратно, и телевизор решит снова.",
 "handed.ask": "Попросить место обратно",
 "handed.other": "Войти под другим именем",
 "handed.err.not_claimable": "Этого места в комнате больше нет."
};
