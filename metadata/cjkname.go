package metadata

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Chinese and Japanese pages label a byline rather than open it with a
// word like "By": "作者：李明", "[作者：李妍]", "作者：记者 武彩霞　　来源：经济参考网",
// "本报记者 王小红", "著者：山田太郎" (daniel-zh: 46 of its 246 pages write
// "作者：", 66 "记者"). A name is two to four ideographs, or the parts of a
// transliterated name joined by a middle dot ("凱倫．伯格"); with no
// capitals to tell a name from any other word, only a labelled one is
// read as a name (cjkLabelled).

// cjkByPrefix is byPrefix's part for these labels: a label word and a
// colon ("作者：", "文："), or a reporter's title ("本报记者", or "记者"
// with a colon or a space after it: "记者会上" opens a sentence), after
// an optional opening bracket.
const cjkByPrefix = `[\[【（(]?\s*(?:(?:作者|著者|筆者|执笔人|執筆人|执笔|執筆|撰稿人|撰稿|撰文|文)\s*[:：]|(?:本报|本報|特约|特約)(?:记者|記者)(?:\s*[:：])?|(?:记者|記者)(?:\s*[:：]|\s))\s*`

// cjkRoles are titles that stand before a name after the label
// ("作者：记者 武彩霞").
var cjkRoles = []string{"本报记者", "本報記者", "特约记者", "特約記者", "记者", "記者", "通讯员", "通訊員", "实习生", "實習生"}

// notCJKNames are words of two to four ideographs that stand where a
// name does in a byline but name nobody: "anonymous", "unknown", "this
// site", "net user", "editor", "original", "compiled", the labels
// themselves and a template's links ("mobile version").
var notCJKNames = set("佚名", "匿名", "未知", "本站", "本网", "本網", "网友", "網友", "编辑", "編輯", "小编", "小編",
	"责任编辑", "責任編輯", "管理员", "管理員", "原创", "原創", "综合", "綜合", "来源", "來源", "作者", "著者", "筆者",
	"记者", "記者", "转载", "轉載", "整理", "编译", "編譯", "不详", "不詳", "手机版", "手機版", "电脑版", "電腦版")

// cjkOrgEnds are the last ideographs of an organisation's name (a site,
// a newspaper, an agency, a channel), never of a person's.
const cjkOrgEnds = "网網社报報台站部刊局院"

// cjkOrg says whether s is written as the name of a Chinese or Japanese
// organisation: ideographs that end as one does (cjkOrgEnds, or 集团
// "group" and 公司 "company").
func cjkOrg(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return hasHan(s) && (strings.ContainsRune(cjkOrgEnds, r) || strings.HasSuffix(s, "集团") || strings.HasSuffix(s, "集團") || strings.HasSuffix(s, "公司"))
}

// isCJKName says whether s is written as a Chinese or Japanese person's
// name: two to four ideographs or kana, or up to twelve with the middle
// dots of a transliterated name between its parts.
func isCJKName(s string) bool {
	n, dots := 0, 0
	prevDot := true // a dot may not open the name
	var last rune
	for _, r := range s {
		switch {
		case r == '·' || r == '・' || r == '．' || r == '•':
			if prevDot {
				return false
			}
			dots++
			prevDot = true
			continue
		case hanOrKana(r):
			n++
		default:
			return false
		}
		prevDot = false
		last = r
	}
	if prevDot || n < 2 || dots == 0 && n > 4 || n > 12 || notCJKNames[s] {
		return false
	}
	return !strings.ContainsRune(cjkOrgEnds, last)
}

// hanOrKana says whether r is an ideograph or kana, the letters of a
// Chinese or Japanese name.
func hanOrKana(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)
}

// cjkFirst says whether s opens with an ideograph or kana.
func cjkFirst(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return hanOrKana(r)
}

// cjkAfterLabel says whether s, the text after a byline's label, is a
// Chinese or Japanese one: it has ideographs, and opens with one, with
// kana, or with a mark ("《财经》综合报道").
func cjkAfterLabel(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return hasHan(s) && (hanOrKana(r) || !unicode.IsLetter(r) && !unicode.IsDigit(r))
}

// cjkNames reads the names at the start of s, the text after a byline's
// label: a role title goes, then the first name, and the names after it
// that "、" or a comma separate ("李明、王红"). After a space what follows
// is as often "报道", "发自北京" or "阅读次数" as another name: it is one
// only when it is written as a Chinese name (hanName) and ends the text
// or stands before a space or a separator ("作者：宋怡 杨志华").
func cjkNames(s string) []string {
	s = strings.TrimSpace(s)
	for trimmed := true; trimmed; {
		trimmed = false
		for _, r := range cjkRoles {
			if rest, ok := strings.CutPrefix(s, r); ok {
				s, trimmed = strings.TrimLeft(rest, " :：\u3000"), true
				break
			}
		}
	}
	var out []string
	for s != "" {
		end := strings.IndexFunc(s, func(r rune) bool {
			return unicode.IsSpace(r) || strings.ContainsRune("、，,;；/|｜]】)）", r)
		})
		if end < 0 {
			end = len(s)
		}
		if !isCJKName(s[:end]) {
			break
		}
		out = append(out, s[:end])
		sep, n := utf8.DecodeRuneInString(s[end:])
		if unicode.IsSpace(sep) {
			rest := strings.TrimLeftFunc(s[end:], unicode.IsSpace)
			next := strings.IndexFunc(rest, func(r rune) bool { return !hanOrKana(r) })
			if next < 0 {
				next = len(rest)
			}
			if r, _ := utf8.DecodeRuneInString(rest[next:]); next == 0 || !hanName(rest[:next]) ||
				next < len(rest) && !unicode.IsSpace(r) && !strings.ContainsRune("、，,;；/|｜]】)）", r) {
				break
			}
			s = rest
			continue
		}
		if sep != '、' && sep != '，' && sep != ',' {
			break
		}
		s = strings.TrimLeftFunc(s[end+n:], unicode.IsSpace)
	}
	return out
}

// hanName says whether s is written as a Chinese person's name: two or
// three ideographs opening with one of the common surnames, or three or
// four opening with a surname of two ("欧阳修", "司马光").
func hanName(s string) bool {
	if !isCJKName(s) || reportWords.MatchString(s) {
		return false
	}
	n := utf8.RuneCountInString(s)
	first, size := utf8.DecodeRuneInString(s)
	second, _ := utf8.DecodeRuneInString(s[size:])
	return (n == 2 || n == 3) && strings.ContainsRune(surnames, first) ||
		(n == 3 || n == 4) && slices.Contains(doubleSurnames, string([]rune{first, second}))
}

// surnames are the commonest Chinese surnames of one ideograph, in
// simplified and traditional writing: the hundred of the Ministry of
// Public Security's 2019 count (about 85% of the population) and some
// more.
const surnames = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩邓冯曹彭曾肖田董潘袁蔡蒋余于杜叶程魏苏吕丁任卢姚沈钟姜崔谭陆范汪廖石金韦贾夏付傅方邹熊白孟秦邱侯江尹薛闫段雷龙黎史陶贺毛郝顾龚邵万覃武钱戴严莫孔向常汤康易乔赖文施洪辛柯庄樊兰殷齐葛闵温牛聂章伍尚岳左鲁柏" +
	"張劉陳楊黃趙吳孫馬鄭謝許韓鄧馮蕭葉蘇呂盧鍾譚陸賈韋鄒龔萬錢嚴湯賴莊蘭齊聶溫閔喬顧龍侯"

// doubleSurnames are the Chinese surnames of two ideographs.
var doubleSurnames = []string{"欧阳", "歐陽", "司马", "司馬", "上官", "诸葛", "諸葛", "东方", "東方", "皇甫", "令狐", "司徒", "慕容", "公孙", "公孫", "夏侯", "尉迟", "尉遲", "长孙", "長孫", "宇文", "澹台"}

// cjkLabelled says whether a byline's text t opens with one of the labels
// of cjkByPrefix and a name in ideographs after it.
func cjkLabelled(t string) bool {
	if !mayHaveHanOrKana(t) {
		return false
	}
	loc := byPrefix.FindStringIndex(t)
	return loc != nil && cjkFirst(t[loc[1]:])
}

// mayHaveHanOrKana is a cheap test before the byline pattern: false
// only where t has no ideograph or kana, all of which are written from
// U+2E80 on: in UTF-8 with a first byte above 0xE2, or 0xE2 and then
// 0xBA or more (the dashes and quotes of U+2000 to U+206F, which
// Latin-script bylines have, pass as none).
func mayHaveHanOrKana(t string) bool {
	for i := 0; i < len(t); i++ {
		if b := t[i]; b > 0xe2 || b == 0xe2 && i+1 < len(t) && t[i+1] >= 0xba {
			return true
		}
	}
	return false
}

// describes says whether an author value describes a site or lists its
// keywords rather than naming anyone: a web address or a domain name
// among other parts ("股城网, 订票电话加价, gucheng.com", "… Дальний Восток
// http://primamedia.ru"), a Chinese or Japanese full stop, or nine
// ideographs or kana in a row, longer than a name ("…, 期货与外汇市场的金融资讯").
func describes(v string) bool {
	if strings.Contains(v, "。") {
		return true
	}
	run := 0
	for _, r := range v {
		if hanOrKana(r) {
			if run++; run >= 9 {
				return true
			}
		} else {
			run = 0
		}
	}
	if strings.IndexByte(v, '.') < 0 || !strings.ContainsAny(v, ",;|、") {
		// A domain alone is a site's name for itself
		// ("AccountingDepartment.com"), and an address after a name is
		// the author's own ("Frank Bueltge - http://bueltge.de").
		return false
	}
	for f := range strings.FieldsSeq(v) {
		if f = strings.Trim(f, ",;()"); domainName.MatchString(f) || strings.Contains(f, "://") {
			return true
		}
	}
	return false
}

// domainName is a host name with a common top-level domain.
var domainName = regexp.MustCompile(`^(?i:[a-z0-9-]+\.)+(?i:com|net|org|info|biz|io|co|cn|ru|de|uk|jp|fr|it|es|pl|nl|br|in|au|ca|ua|kz|by)$`)

// koreanReporter reads a Korean byline, which names the reporter before
// or after the title 기자 ("홍길동 기자", "[서울=뉴시스] 홍길동 기자",
// "기자 김철수"): the name, two to four Hangul syllables.
func koreanReporter(v string) (string, bool) {
	if !strings.Contains(v, "기자") {
		return "", false
	}
	if m := koreanReporterRe.FindStringSubmatch(v); m != nil {
		if m[1] != "" {
			return m[1], true
		}
		return m[2], true
	}
	return "", false
}

var koreanReporterRe = regexp.MustCompile(`(?:^|[\s\]])([가-힣]{2,4})\s*기자(?:$|[\s=@,·])|^\s*기자\s+([가-힣]{2,4})(?:$|[\s,])`)

// isHangulName says whether s is two to four Hangul syllables, as a
// Korean name is written (koreanReporter reads it).
func isHangulName(s string) bool {
	n := 0
	for _, r := range s {
		if r < 0xAC00 || r > 0xD7A3 {
			return false
		}
		n++
	}
	return n >= 2 && n <= 4
}

// maxClosingNames is the most names a closing credit gives.
const maxClosingNames = 4

// closingCredit reads the writers a Chinese news item credits in
// brackets at the end of its text, with no title before them
// ("…的新春佳节。（常书香 马丹阳 ）", "（姚峰 上海报道）"): the last of
// closing's last two lines ends with the bracket, which holds one to
// maxClosingNames Chinese names (hanName: a common surname first) apart
// with white space or "、", and perhaps a dateline after them ("上海报道",
// "发自上海"). A credit with a title ("（记者 胡晓蓉）") is reporterCredit's;
// nil for none.
func closingCredit(closing string) []string {
	rest := strings.TrimSpace(closing)
	for range 2 { // the last line, then the one before it
		i := strings.LastIndexByte(rest, '\n')
		if names := bracketNames(strings.TrimSpace(rest[i+1:])); len(names) > 0 {
			return names
		}
		if i < 0 {
			break
		}
		rest = rest[:i]
	}
	return nil
}

// bracketNames reads closingCredit's names in the bracket that ends line.
func bracketNames(line string) []string {
	inner, ok := strings.CutSuffix(line, "）")
	if !ok {
		if inner, ok = strings.CutSuffix(line, ")"); !ok {
			return nil
		}
	}
	open := max(strings.LastIndex(inner, "（"), strings.LastIndex(inner, "("))
	if open < 0 {
		return nil
	}
	_, size := utf8.DecodeRuneInString(inner[open:])
	parts := strings.FieldsFunc(inner[open+size:], func(r rune) bool { return unicode.IsSpace(r) || r == '、' })
	if n := len(parts); n > 1 && dateline(parts[n-1]) {
		parts = parts[:n-1]
	}
	if len(parts) == 0 || len(parts) > maxClosingNames {
		return nil
	}
	for _, p := range parts {
		if !hanName(p) {
			return nil
		}
	}
	return parts
}

// dateline says whether s is where a report was filed from ("上海报道",
// "发自上海").
func dateline(s string) bool {
	for _, w := range []string{"报道", "報道", "报导", "報導"} {
		if strings.HasSuffix(s, w) {
			return true
		}
	}
	return strings.HasPrefix(s, "发自") || strings.HasPrefix(s, "發自")
}
