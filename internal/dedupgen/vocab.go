package dedupgen

// vocab is one language's boilerplate: the words of site menus, the
// endings of site names, footer lines and trailers that copies gain. In
// footers and trailers {site} stands for the site's name, {host} for its
// host and {year} for a year.
type vocab struct {
	nav      []string
	suffixes []string
	footer   []string
	trailers []string
}

// vocabs holds the boilerplate of the pool's languages; others use "en".
var vocabs = map[string]vocab{
	"en": {
		nav: []string{"Home", "News", "World", "Business", "Politics", "Sports", "Opinion", "Culture",
			"Science", "Technology", "Health", "Travel", "Video", "Photos", "Weather", "Archive",
			"Subscribe", "Sign in", "Contact us", "About", "Podcasts", "Newsletters", "Events", "Jobs"},
		suffixes: []string{"News", "Daily", "Times", "Post", "Herald", "Review", "Journal", "Today", "Weekly", "Online"},
		footer: []string{"© {year} {site}. All rights reserved.", "Privacy policy | Terms of use | Cookie settings | Contact",
			"{site} is not responsible for the content of external sites.", "Advertise with us | Careers | Help center | Site map"},
		trailers: []string{"Share this article: Facebook, Twitter, LinkedIn, Email", "© {year} {site}. All rights reserved.",
			"This story was first published on {host}.", "Follow {site} on Facebook and Twitter for more news.",
			"Copyright {year} {site}. This material may not be published, broadcast, rewritten or redistributed.",
			"Related: more stories from {site}", "Click here to subscribe to the {site} newsletter."},
	},
	"de": {
		nav: []string{"Startseite", "Nachrichten", "Politik", "Wirtschaft", "Sport", "Kultur", "Wissen",
			"Panorama", "Reise", "Gesundheit", "Digital", "Video", "Bilder", "Wetter", "Archiv", "Abo",
			"Anmelden", "Kontakt", "Impressum", "Datenschutz", "Podcasts", "Newsletter", "Termine", "Stellenmarkt"},
		suffixes: []string{"Zeitung", "Nachrichten", "Kurier", "Anzeiger", "Rundschau", "Blatt", "Tagblatt", "Bote", "Presse", "Online"},
		footer: []string{"© {year} {site}. Alle Rechte vorbehalten.", "Impressum | Datenschutz | Cookie-Einstellungen | Kontakt",
			"{site} ist nicht verantwortlich für die Inhalte externer Seiten.", "Mediadaten | Karriere | Hilfe | Sitemap"},
		trailers: []string{"Artikel teilen: Facebook, Twitter, WhatsApp, E-Mail", "© {year} {site}. Alle Rechte vorbehalten.",
			"Dieser Artikel erschien zuerst auf {host}.", "Folgen Sie {site} auf Facebook und Twitter.",
			"Quelle: {site}, alle Angaben ohne Gewähr.", "Mehr zum Thema bei {site}", "Jetzt den Newsletter von {site} abonnieren."},
	},
	"ru": {
		nav: []string{"Главная", "Новости", "В мире", "Экономика", "Политика", "Спорт", "Мнения", "Культура",
			"Наука", "Технологии", "Здоровье", "Путешествия", "Видео", "Фото", "Погода", "Архив",
			"Подписка", "Войти", "Контакты", "О нас", "Подкасты", "Рассылка", "Афиша", "Вакансии"},
		suffixes: []string{"Новости", "Вести", "Известия", "Обозреватель", "Вестник", "Газета", "Курьер", "Онлайн", "Инфо", "Ведомости"},
		footer: []string{"© {year} {site}. Все права защищены.", "Политика конфиденциальности | Пользовательское соглашение | Контакты",
			"Редакция {site} не несёт ответственности за содержание внешних сайтов.", "Реклама на сайте | Вакансии | Помощь | Карта сайта"},
		trailers: []string{"Поделиться: ВКонтакте, Одноклассники, Telegram, WhatsApp", "© {year} {site}. Все права защищены.",
			"Источник: {host}", "При перепечатке материалов ссылка на {site} обязательна.",
			"Подписывайтесь на {site} в Telegram и ВКонтакте.", "Читайте также другие новости {site}", "Нашли опечатку? Выделите её и нажмите Ctrl+Enter."},
	},
	"zh": {
		nav: []string{"首页", "新闻", "国内", "国际", "财经", "体育", "娱乐", "科技", "教育", "健康", "汽车",
			"房产", "旅游", "视频", "图片", "天气", "专题", "评论", "登录", "注册", "联系我们", "关于我们", "广告服务", "网站地图"},
		suffixes: []string{"网", "新闻网", "日报", "晚报", "在线", "资讯", "时报", "周刊", "门户", "频道"},
		footer: []string{"版权所有 © {year} {site} 保留所有权利", "关于我们 | 联系我们 | 广告服务 | 网站地图 | 隐私政策",
			"本网站所刊载信息，不代表{site}观点。", "违法和不良信息举报电话 | 举报邮箱 | 网络文化经营许可证"},
		trailers: []string{"分享到：微信 微博 QQ空间 豆瓣", "版权所有 © {year} {site}", "来源：{host}",
			"转载请注明出处：{site}。", "责任编辑：{site} 编辑部", "更多精彩内容，请关注{site}官方微信。", "本文仅代表作者观点，不代表{site}立场。"},
	},
}

func vocabFor(code string) vocab {
	if v, ok := vocabs[code]; ok {
		return v
	}
	return vocabs["en"]
}
