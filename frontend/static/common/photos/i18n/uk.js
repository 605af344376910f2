// Table photos' strings (common/photos/photos.js): a data file (strict JSON after
// `export default`), loaded with that module. Every key is in en, uk and ru.
export default {
 "photo.title": "Ваші фото для столу",
 "photo.hint": "Додайте до {n} власних фото: вони стануть картами в іграх цієї кімнати й зникнуть разом із нею.",
 "photo.off": "Ведучий вимкнув фото для столу: ваші фото не роздаються. Можете їх прибрати; так чи інакше вони зникнуть разом із кімнатою.",
 "photo.add": {
  "one": "Додати фото (ще {n})",
  "few": "Додати фото (ще {n})",
  "many": "Додати фото (ще {n})",
  "other": "Додати фото (ще {n})"
 },
 "photo.full": "Ви додали {n} фото: приберіть одне, щоб додати інше.",
 "photo.yours": "Ваше фото {n}",
 "photo.remove": "Прибрати це фото",
 "photo.err.too_many_photos": "З одного телефона можна додати щонайбільше 5 фото.",
 "photo.err.photos_off": "Ведучий вимкнув фото для столу.",
 "photo.err.photo_not_found": "Цього фото вже немає.",
 "photo.err.game_running": "Фото додають і прибирають у лобі.",
 "photo.err.upload_busy": "Інше фото ще обробляється: спробуйте за мить.",
 "photo.err.not_an_image": "це не зображення",
 "photo.err.unsupported_format": "лише зображення JPEG, PNG і WebP",
 "photo.err.too_large": "більше за 10 МБ",
 "photo.err.too_many_pixels": "забагато пікселів",
 "photo.err.broken_image": "зображення не вдається прочитати",
 "photo.err.deck_full": "більше фото не вміститься",
 "photo.count": {
  "one": "📷 {n} фото для столу",
  "few": "📷 {n} фото для столу",
  "many": "📷 {n} фото для столу",
  "other": "📷 {n} фото для столу"
 },
 "photo.nth": "Фото для столу {n}"
};
