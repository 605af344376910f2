// Table photos' strings (common/photos/photos.js): a data file (strict JSON after
// `export default`), loaded with that module. Every key is in en, uk and ru.
export default {
 "photo.title": "Ваши фото для стола",
 "photo.hint": "Добавьте до {n} своих фото: они станут картами в играх этой комнаты и исчезнут вместе с ней.",
 "photo.off": "Ведущий выключил фото для стола: ваши фото не раздаются. Можете их убрать; так или иначе они исчезнут вместе с комнатой.",
 "photo.add": {
  "one": "Добавить фото (ещё {n})",
  "few": "Добавить фото (ещё {n})",
  "many": "Добавить фото (ещё {n})",
  "other": "Добавить фото (ещё {n})"
 },
 "photo.full": "Вы добавили {n} фото: уберите одно, чтобы добавить другое.",
 "photo.yours": "Ваше фото {n}",
 "photo.remove": "Убрать это фото",
 "photo.err.too_many_photos": "С одного телефона можно добавить не больше 5 фото.",
 "photo.err.photos_off": "Ведущий выключил фото для стола.",
 "photo.err.photo_not_found": "Этого фото уже нет.",
 "photo.err.game_running": "Фото добавляют и убирают в лобби.",
 "photo.err.upload_busy": "Другое фото ещё обрабатывается: попробуйте через мгновение.",
 "photo.err.not_an_image": "это не изображение",
 "photo.err.unsupported_format": "только изображения JPEG, PNG и WebP",
 "photo.err.too_large": "больше 10 МБ",
 "photo.err.too_many_pixels": "слишком много пикселей",
 "photo.err.broken_image": "изображение не удаётся прочитать",
 "photo.err.deck_full": "больше фото не поместится",
 "photo.count": {
  "one": "📷 {n} фото для стола",
  "few": "📷 {n} фото для стола",
  "many": "📷 {n} фото для стола",
  "other": "📷 {n} фото для стола"
 },
 "photo.nth": "Фото для стола {n}"
};
